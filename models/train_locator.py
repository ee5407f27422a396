"""Train the board locator network and export it to models/locator.onnx.

The network sees a frame letterboxed to 256x160 and predicts, at half that resolution, two
maps: the playing area (mask) and its four corners (one heatmap, unordered, so rotation and
mirroring need no convention). Occluded parts are targets too, so a hand over a corner still
yields the whole quadrilateral. Training mixes the labelled webcam photos (half), stills from
vision.render (other boards, tiles, tables, lenses and hands; 40%) and boards drawn here in
random colours (10%), all warped at random (any rotation, mirrored, perspective, scale), so
the net does not learn only the one home board of the photos; hands and clutter are pasted on.

    .venv/bin/pip install torch==2.13.0 onnx   # training only; never needed at run time
    .venv/bin/python models/train_locator.py --photos ../shared/real/board-corners/train \
        --render-cache /tmp/locator_stills.npz

With the defaults on one CPU thread: about 12 minutes to render 1000 stills, 25 to train.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import nn

from tilecast.engine.board import premium_name
from tilecast.vision.corner_labels import read_coco_corners
from tilecast.vision.locate import INPUT_H, INPUT_W, OUTPUT_STRIDE

OUT_H, OUT_W = INPUT_H // OUTPUT_STRIDE, INPUT_W // OUTPUT_STRIDE
SIGMA = 1.5  # corner heatmap spread, output pixels
LOAD_SCALE = 0.5  # photos are kept in memory at half size
RENDER_SEED = 1_000_000


# ---------------------------------------------------------------- network


def _conv(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, dilation, dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class LocatorNet(nn.Module):
    """Small U-Net: stride-32 context (the board fills much of the frame), stride-2 output."""

    def __init__(self, widths: tuple[int, ...] = (16, 24, 48, 64, 96)) -> None:
        super().__init__()
        w = widths
        self.enc = nn.ModuleList()
        cin = 3
        for i, c in enumerate(w):
            dil = 2 if i >= 3 else 1
            self.enc.append(nn.Sequential(_conv(cin, c, 2), _conv(c, c, 1, dil)))
            cin = c
        self.dec = nn.ModuleList(
            _conv(w[i + 1] + w[i], w[i] if i else 16) for i in reversed(range(len(w) - 1))
        )
        self.head = nn.Conv2d(16, 2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        skips = []
        for block in self.enc:
            x = block(x)
            skips.append(x)
        x = skips.pop()
        for block in self.dec:
            skip = skips.pop()
            x = nn.functional.interpolate(x, size=skip.shape[2:], mode="nearest")
            x = block(torch.cat([x, skip], 1))
        return self.head(x)


# ---------------------------------------------------------------- drawn boards


def _random_colour(rng: np.random.Generator, light: bool | None = None) -> np.ndarray:
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 200), 0]]])
    if light is None:
        hsv[0, 0, 2] = rng.integers(20, 256)
    else:
        hsv[0, 0, 2] = rng.integers(170, 256) if light else rng.integers(20, 110)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def draw_board(rng: np.random.Generator, px: int = 12) -> tuple[np.ndarray, np.ndarray]:
    """A top-down board in random colours and the playing area's corners in it."""
    border = rng.uniform(0.0, 0.5) * px
    frame = rng.uniform(0.3, 2.0) * px
    pad = int(border + frame)
    side = 15 * px + 2 * pad
    gap = int(rng.integers(1, 3))
    img = np.empty((side + gap, side + gap, 3), np.uint8)
    img[:] = _random_colour(rng)
    lo, hi = pad - border, pad + 15 * px + gap + border
    img[int(lo) : int(hi), int(lo) : int(hi)] = _random_colour(rng)
    plain = _random_colour(rng, light=rng.random() < 0.8)
    premiums = {k: _random_colour(rng) for k in ("TW", "DW", "TL", "DL")}
    line = _random_colour(rng)
    end = pad + 15 * px + gap
    area = img[pad:end, pad:end]
    area[:] = line
    tile = _random_colour(rng)
    ink = _random_colour(rng, light=bool(tile.mean() < 128))
    fill = rng.uniform(0.0, 0.6)
    for r in range(15):
        for c in range(15):
            y, x = r * px, c * px
            kind = premium_name(r, c)
            area[y + gap : y + px, x + gap : x + px] = premiums[kind] if kind else plain
            if rng.random() < fill:
                inset = int(rng.integers(1, 3))
                area[y + inset : y + px - inset + gap, x + inset : x + px - inset + gap] = tile
                letter = chr(int(rng.integers(65, 91)))
                cv2.putText(
                    area, letter, (x + px // 4, y + 3 * px // 4), 0, px / 40, ink.tolist(), 1
                )
    corners = np.float32([[pad, pad], [end, pad], [end, end], [pad, end]])
    return img.astype(np.float32), corners


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    img = np.empty((h, w, 3), np.float32)
    img[:] = _random_colour(rng)
    for _ in range(int(rng.integers(0, 12))):
        colour = _random_colour(rng).tolist()
        p = rng.integers(0, [w, h], 2)
        size = rng.integers(5, max(w, h) // 2, 2)
        if rng.random() < 0.5:
            cv2.rectangle(img, tuple(map(int, p)), tuple(map(int, p + size)), colour, -1)
        else:
            cv2.ellipse(
                img,
                tuple(map(int, p)),
                tuple(map(int, size // 2)),
                float(rng.uniform(0, 180)),
                0,
                360,
                colour,
                -1,
            )
    return img


# ---------------------------------------------------------------- augmentation


def _side(quad: np.ndarray) -> float:
    return float(np.linalg.norm(quad - np.roll(quad, -1, 0), axis=1).mean())


def _random_placement(rng: np.random.Generator, corners: np.ndarray) -> np.ndarray:
    """A homography putting the quadrilateral somewhere plausible in the network input."""
    centre = corners.mean(0)
    side = _side(corners)
    angle = rng.uniform(-180, 180) if rng.random() < 0.5 else rng.uniform(-15, 15)
    target = (rng.uniform(0.55, 1.0) if rng.random() < 0.7 else rng.uniform(0.3, 0.55)) * INPUT_H
    a = math.radians(angle)
    s = target / side
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * s
    if rng.random() < 0.5:
        rot = rot @ np.diag([-1.0, 1.0])
    moved = (corners - centre) @ rot.T
    jitter = rng.normal(0, 0.04 * target, (4, 2))
    moved = moved + jitter
    lo, hi = moved.min(0), moved.max(0)
    span = np.array([INPUT_W, INPUT_H])
    slack = np.maximum(span - (hi - lo), 0)
    spill = 0.06 * target if rng.random() < 0.2 else 0.0
    offset = rng.uniform(-lo - spill, -lo + slack + spill)
    dst = (moved + offset).astype(np.float32)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), dst)


def _paste_hands(rng: np.random.Generator, img: np.ndarray, quad: np.ndarray) -> None:
    """Skin- or cloth-coloured blobs reaching in over the board's edge."""
    for _ in range(int(rng.integers(0, 3))):
        skin = rng.random() < 0.7
        hsv = np.uint8(
            [
                [
                    [
                        rng.integers(0, 25) if skin else rng.integers(0, 180),
                        rng.integers(40, 170),
                        rng.integers(60, 255),
                    ]
                ]
            ]
        )
        colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].tolist()
        k = int(rng.integers(4))
        p = quad[k] + rng.uniform(0, 1) * (quad[(k + 1) % 4] - quad[k])
        size = rng.uniform(0.06, 0.2) * INPUT_H
        centre = p + rng.normal(0, size * 0.5, 2)
        axes = (int(size), int(size * rng.uniform(0.3, 0.7)))
        cv2.ellipse(
            img, tuple(map(int, centre)), axes, float(rng.uniform(0, 180)), 0, 360, colour, -1
        )
        for _ in range(int(rng.integers(0, 5))):  # fingers
            d = rng.normal(0, 1, 2)
            d /= np.linalg.norm(d) + 1e-6
            end = centre + d * size * rng.uniform(1.0, 1.8)
            cv2.line(
                img, tuple(map(int, centre)), tuple(map(int, end)), colour, max(1, int(size * 0.25))
            )


def _photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(
            np.float32
        )
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-90, 90)) % 180
        hsv[..., 1] *= rng.uniform(0.3, 1.5)
        img = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(
            np.float32
        )
    if rng.random() < 0.1:
        img = np.repeat(img.mean(2, keepdims=True), 3, 2)
    img = img * rng.uniform(0.5, 1.4) + rng.uniform(-40, 40)
    h, w = img.shape[:2]
    ramp = np.linspace(-1, 1, w)[None, :, None] * rng.uniform(-40, 40)
    img = img + ramp + (np.linspace(-1, 1, h)[:, None, None] * rng.uniform(-40, 40))
    img = np.clip(img, 0, 255)
    if rng.random() < 0.5:
        img = 255 * (img / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def _targets(quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    out = quad / OUTPUT_STRIDE
    mask = np.zeros((OUT_H, OUT_W), np.uint8)
    cv2.fillPoly(mask, [np.round(out * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    ys, xs = np.mgrid[0:OUT_H, 0:OUT_W].astype(np.float32)
    heat = np.zeros((OUT_H, OUT_W), np.float32)
    for x, y in out:
        heat = np.maximum(heat, np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * SIGMA**2)))
    return mask.astype(np.float32), heat


Pool = list[tuple[np.ndarray, np.ndarray]]  # (image, corners) pairs


def make_sample(
    rng: np.random.Generator, photos: Pool, rendered: Pool, synthetic: float, rendered_share: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(input image HxWx3 uint8, mask, heatmap) for one augmented frame."""
    pick = rng.random()
    if pick < synthetic:
        src, corners = draw_board(rng)
        bg = _background(rng, INPUT_H, INPUT_W)
    else:
        pool = rendered if pick < synthetic + rendered_share and rendered else photos
        src, corners = pool[int(rng.integers(len(pool)))]
        src = src.astype(np.float32)
        bg = None
    h = _random_placement(rng, corners)
    quad = cv2.perspectiveTransform(corners[None].astype(np.float32), h)[0]
    shrink = _side(quad) / _side(corners)
    if shrink < 0.7:  # warpPerspective does not filter: blur first, like an area resize
        src = cv2.GaussianBlur(src, (0, 0), 0.4 / shrink)
    border = cv2.BORDER_TRANSPARENT if bg is not None else cv2.BORDER_CONSTANT
    canvas = bg if bg is not None else np.empty((INPUT_H, INPUT_W, 3), np.float32)
    if bg is None:
        canvas[:] = _random_colour(rng)
    cv2.warpPerspective(src, h, (INPUT_W, INPUT_H), canvas, cv2.INTER_LINEAR, border)
    if rng.random() < 0.6:
        _paste_hands(rng, canvas, quad)
    img = _photometric(rng, canvas)
    mask, heat = _targets(quad)
    return img, mask, heat


# ---------------------------------------------------------------- training


def _shrunk(img: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    small = cv2.resize(img, None, fx=LOAD_SCALE, fy=LOAD_SCALE, interpolation=cv2.INTER_AREA)
    return small, np.float32(corners) * LOAD_SCALE


def load_photos(folder: Path) -> Pool:
    return [_shrunk(cv2.imread(str(p.path)), p.corners) for p in read_coco_corners(folder)]


def render_stills(n: int, cache: Path | None) -> Pool:
    """Frames from vision.render: many board and tile styles, tables, lights, lenses, hands.

    Seeds start at RENDER_SEED, far from the seeds benchmarks/locate_eval.py measures on.
    """
    if cache and cache.is_file():
        data = np.load(cache)
        return list(zip(data["images"][:n], data["corners"][:n], strict=True))
    from tilecast.vision.render import render_still, scattered_board

    pool = []
    for seed in range(RENDER_SEED, RENDER_SEED + n):
        board = scattered_board(np.random.default_rng(seed))
        img, truth = render_still(board, seed=seed)
        pool.append(_shrunk(img, truth["corners"]))
        if len(pool) % 100 == 0:
            print(f"rendered {len(pool)}/{n}", flush=True)
    if cache:
        np.savez(
            cache, images=np.stack([p[0] for p in pool]), corners=np.stack([p[1] for p in pool])
        )
    return pool


def _batch(rng, photos, rendered, n, synthetic, rendered_share):
    samples = [make_sample(rng, photos, rendered, synthetic, rendered_share) for _ in range(n)]
    x = np.stack([s[0] for s in samples]).astype(np.float32) / 255.0 - 0.5
    x = torch.from_numpy(x.transpose(0, 3, 1, 2).copy())
    y = torch.from_numpy(np.stack([np.stack([s[1], s[2]]) for s in samples]))
    return x, y


def loss_fn(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    mask_loss = nn.functional.binary_cross_entropy_with_logits(logits[:, 0], target[:, 0])
    heat = torch.sigmoid(logits[:, 1])
    heat_loss = (((heat - target[:, 1]) ** 2) * (1 + 50 * target[:, 1])).mean()
    return mask_loss + 10 * heat_loss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path, required=True, help="COCO folder of train photos")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "locator.onnx")
    parser.add_argument("--steps", type=int, default=3500)
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--synthetic", type=float, default=0.1, help="share of drawn boards")
    parser.add_argument("--rendered", type=int, default=1000, help="vision.render stills to mix in")
    parser.add_argument("--rendered-share", type=float, default=0.4, help="share of them")
    parser.add_argument("--render-cache", type=Path, help="keep the rendered stills in this .npz")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=Path, help="write a few training inputs here and stop")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.photos)
    rendered = render_stills(args.rendered, args.render_cache) if args.rendered else []
    if args.samples:
        args.samples.mkdir(parents=True, exist_ok=True)
        for i in range(16):
            img, mask, heat = make_sample(
                rng, photos, rendered, args.synthetic, args.rendered_share
            )
            over = cv2.resize(np.maximum(mask * 80, heat * 255), (INPUT_W, INPUT_H))
            img[..., 2] = np.maximum(img[..., 2], over.astype(np.uint8))
            cv2.imwrite(str(args.samples / f"sample{i:02d}.png"), img)
        return
    net = LocatorNet()
    params = sum(p.numel() for p in net.parameters())
    print(f"{len(photos)} photos, {len(rendered)} rendered, {params} parameters")
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=args.steps, pct_start=0.05)
    start = time.time()
    running = 0.0
    for step in range(1, args.steps + 1):
        x, y = _batch(rng, photos, rendered, args.batch, args.synthetic, args.rendered_share)
        loss = loss_fn(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
        if step % 50 == 0:
            print(f"step {step} loss {running:.4f} {time.time() - start:.0f}s", flush=True)
    net.eval()
    dummy = torch.zeros(1, 3, INPUT_H, INPUT_W)
    torch.onnx.export(
        net,
        dummy,
        str(args.out),
        input_names=["image"],
        output_names=["maps"],
        opset_version=17,
        dynamo=False,
    )
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
