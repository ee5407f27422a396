"""Train the tile classifier on rendered cell crops and export it to models/tiles.onnx.

Data: vision.render.render_cells crops, cached and split as models/tile_splits.py says: whole
tile and board styles are held out of training; their crops from the training seeds calibrate
the temperature, those from the test seeds (looks never rendered for training) give the figures
in models/MODEL_CARD.md (models/eval_classifier.py). Beside them, the squares of whole rendered
board photos, rectified and cut as the reader does at about the photo's own resolution
(models/board_cells.py, training styles only).

Network: six 3x3 conv blocks (48x48 grey input, widths 32/64/128, strides 2, 2, 2) and a fully
connected layer to a 128-d unit embedding, read by a cosine classifier (CosFace margin) over 28
classes and a linear 8-way orientation head (four turns, mirrored or not). Augmentation on top
of the renderer's own degradations: any quarter turn and mirroring (labels follow), polarity
inversion, channel shuffles, contrast and gamma, shifts and scale, and now and then resolution
loss, blur, noise, JPEG and an occluding patch.

    .venv/bin/pip install torch==2.13.0 onnx   # training only; never needed at run time
    .venv/bin/python models/train.py --workers 2
    .venv/bin/python models/quantize.py   # the int8 copy the reader loads (tiles_int8.onnx)
    .venv/bin/python models/eval_classifier.py --looks 36 --json /tmp/tiles-eval.json

Rendering the cache (64 crop chunks and 128 board chunks) takes about 10 minutes on two cores;
training (8000 steps of 192 crops) about 33 minutes on one thread (42 with a second run beside
it); the model card's figures about 5 minutes. On a GPU machine, `--loaders` processes augment
the batches and `--minutes` bounds the run by the clock; the shipped model's two runs are in
models/MODEL_CARD.md (session 17).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from board_cells import BOARD_SEEDS, render_board_chunk
from tile_splits import DEFAULT_CACHE, TRAIN_SEEDS, load_split, render_cache
from torch import nn

from tilecast.vision.classify import CLASSES, INPUT_SIZE, OUTPUTS, preprocess

EMBED = 128
SCALE = 20.0  # cosine logit scale
MARGIN = 0.1  # CosFace margin, training only
OUT = Path(__file__).resolve().parent / "tiles.onnx"
MARGIN_CELLS = 0.25  # the crops' margin around the square (rectify.cell_crops)
RECUT = 0.12  # share of crops cut as another tool cuts a square (_recut)


# ---------------------------------------------------------------- augmentation


def _dihedral(img: np.ndarray, o: int, rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Random quarter turn and mirror; the orientation label follows (-1, not labelled, stays).

    A crop showing upright face U turned by r is rot90(U, r); its mirror image is
    rot90(mirror(U), -r), so mirroring flips the mirrored bit and negates the turn."""
    mirrored, turn = divmod(o, 4)
    if rng.random() < 0.2:
        img, mirrored, turn = img[:, ::-1], 1 - mirrored, (-turn) % 4
    k = int(rng.integers(4))
    return np.rot90(img, k), -1 if o < 0 else 4 * mirrored + (turn + k) % 4


def _colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    x = img.astype(np.float32)
    if rng.random() < 0.5:
        x = x[..., rng.permutation(3)]
    if rng.random() < 0.5:
        x = 255 - x
    if rng.random() < 0.5:
        x = 255 * (x / 255) ** rng.uniform(0.6, 1.6)
    if rng.random() < 0.5:
        x = (x - x.mean()) * rng.uniform(0.5, 1.2) + x.mean() + rng.normal(0, 15)
    return x


def _geometry(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = x.shape[0]
    a = np.radians(rng.normal(0, 3))
    s = rng.uniform(0.92, 1.08)
    m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), np.degrees(a), s)
    m[:, 2] += rng.normal(0, 0.03 * n, 2)
    return cv2.warpAffine(x, m, (n, n), borderMode=cv2.BORDER_REPLICATE)


def _degrade(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    n = x.shape[0]
    if rng.random() < 0.1:
        side = int(rng.integers(16, 40))
        x = cv2.resize(cv2.resize(x, (side, side), interpolation=cv2.INTER_AREA), (n, n))
    if rng.random() < 0.2:  # as soft as a steep camera's out-of-focus near rows
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.6))
    if rng.random() < 0.05:
        p = rng.integers(0, n, 2)
        w, h = rng.integers(n // 8, n // 3, 2)
        x[p[1]:p[1] + h, p[0]:p[0] + w] = rng.uniform(0, 255, 3)
    if rng.random() < 0.2:
        x = x + rng.normal(0, rng.uniform(2, 8), x.shape)
    x = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.15:
        _, buf = cv2.imencode(".jpg", x, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 85))])
        x = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return x


def _recut(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop as another tool cuts a square: the square alone (its surroundings lost), put
    back at the reader's scale with its edge pixels carried outwards, or stretched to fill the
    crop. Real crops arrive both ways (benchmarks/real_eval.py)."""
    n = img.shape[0]
    inner = n / (1 + 2 * MARGIN_CELLS)
    side = inner * rng.uniform(0.9, 1.1)
    x0, y0 = (n - side) / 2 + rng.normal(0, 0.04 * inner, 2)
    if rng.random() < 0.35:  # a grid cut off by a tilted camera: the tile half outside
        a = rng.uniform(0, 2 * np.pi)
        off = rng.uniform(0.15, 0.45) * inner
        x0, y0 = x0 + off * np.cos(a), y0 + off * np.sin(a)
    m = np.float32([[1, 0, -x0], [0, 1, -y0]])
    square = cv2.warpAffine(img, m, (int(round(side)), int(round(side))),
                            borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        return cv2.resize(square, (n, n), interpolation=cv2.INTER_LINEAR)
    k = int(round(inner))
    square = cv2.resize(square, (k, k), interpolation=cv2.INTER_AREA)
    pad = n - k
    return cv2.copyMakeBorder(square, pad // 2, pad - pad // 2, pad // 2, pad - pad // 2,
                              cv2.BORDER_REPLICATE)


def augment(images: np.ndarray, o: np.ndarray, rng: np.random.Generator, recut: float = RECUT
            ) -> tuple[np.ndarray, np.ndarray]:
    out, orient = [], np.empty_like(o)
    for i, img in enumerate(images):
        img, orient[i] = _dihedral(img, int(o[i]), rng)
        if rng.random() < recut:
            img = _recut(img, rng)
        x = _colour(img, rng)
        if rng.random() < 0.5:
            x = _geometry(x, rng)
        out.append(_degrade(x, rng))
    return preprocess(out), orient


# ---------------------------------------------------------------- network


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class TileNet(nn.Module):
    def __init__(self, widths: tuple[int, int, int] = (32, 64, 128)) -> None:
        super().__init__()
        a, b, c = widths
        self.features = nn.Sequential(_conv(1, a, 2), _conv(a, a), _conv(a, b, 2),
                                      _conv(b, b), _conv(b, c, 2), _conv(c, c), nn.Flatten(),
                                      nn.Dropout(0.2))
        side = INPUT_SIZE // 8
        self.embed = nn.Sequential(nn.Linear(c * side * side, EMBED), nn.BatchNorm1d(EMBED))
        self.orientation = nn.Linear(EMBED, 8)
        self.classes = nn.Parameter(torch.randn(len(CLASSES), EMBED) * 0.1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Cosine logits (times SCALE), orientation logits, unit embeddings."""
        h = self.embed(self.features(x))
        e = F.normalize(h, dim=1)
        cos = e @ F.normalize(self.classes, dim=1).T
        return SCALE * cos, self.orientation(F.relu(h)), e


def losses(net: TileNet, x: torch.Tensor, y: torch.Tensor, o: torch.Tensor
           ) -> tuple[torch.Tensor, torch.Tensor]:
    logits, orient, _ = net(x)
    margin = F.one_hot(y, len(CLASSES)) * (SCALE * MARGIN)
    tile = F.cross_entropy(logits - margin, y, label_smoothing=0.05)
    has_tile = (y != CLASSES.index(".")) & (o >= 0)
    turn = F.cross_entropy(orient[has_tile], o[has_tile]) if has_tile.any() else tile * 0
    return tile, turn


@torch.no_grad()
def infer(net: TileNet, x: np.ndarray, batch: int = 1024, device: str = "cpu"
          ) -> tuple[np.ndarray, np.ndarray]:
    net.eval()
    outs = [net(torch.from_numpy(x[i:i + batch]).to(device)) for i in range(0, len(x), batch)]
    return (torch.cat([a for a, _, _ in outs]).cpu().numpy(),
            torch.cat([b for _, b, _ in outs]).cpu().numpy())


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood (golden-section on log T)."""
    def nll(log_t: float) -> float:
        z = logits / math.exp(log_t)
        z = z - z.max(1, keepdims=True)
        return float((np.log(np.exp(z).sum(1)) - z[np.arange(len(y)), y]).mean())

    lo, hi = math.log(0.05), math.log(20.0)
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - g * (hi - lo), lo + g * (hi - lo)
        if nll(a) < nll(b):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


class Batches(torch.utils.data.IterableDataset):
    """Endless augmented training batches; each loader worker draws from its own generator, so
    a GPU is fed by as many CPU processes as the machine has (the cache is shared by fork)."""

    def __init__(self, data: dict[str, np.ndarray], batch: int, seed: int, recut: float) -> None:
        self.data, self.batch, self.seed, self.recut = data, batch, seed, recut

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        if info:
            cv2.setNumThreads(1)  # one process a core
        rng = np.random.default_rng([self.seed, info.id if info else 0])
        d = self.data
        while True:
            idx = np.sort(rng.integers(len(d["y"]), size=self.batch))
            x, o = augment(d["images"][idx], d["o"][idx], rng, self.recut)
            yield torch.from_numpy(x), torch.from_numpy(d["y"][idx]), torch.from_numpy(o)


def one_cycle(progress: float, lr: float, warmup: float = 0.15) -> float:
    """The learning rate a share `progress` of the way through training: a cosine rise to lr,
    then a cosine fall to almost nothing (the shape of torch's OneCycleLR)."""
    if progress < warmup:
        return lr * (0.04 + 0.96 * (1 - math.cos(math.pi * progress / warmup)) / 2)
    rest = min((progress - warmup) / (1 - warmup), 1.0)
    return lr * (1e-4 + (1 - 1e-4) * (1 + math.cos(math.pi * rest)) / 2)


def train(net: TileNet, data: dict[str, np.ndarray], val: dict[str, np.ndarray], steps: int,
          batch: int, lr: float, seed: int, warm: bool = False, recut: float = RECUT,
          device: str = "cpu", loaders: int = 0, minutes: float = 0.0,
          checkpoint: Path | None = None) -> None:
    """Train for `steps` steps, or until `minutes` have passed when that is given (the schedule
    then runs by the clock, so a time-boxed GPU run ends its cycle on time)."""
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=5e-4)
    few = np.random.default_rng(1).permutation(len(val["y"]))[:3000]  # for progress reports
    vx, vy = preprocess(list(val["images"][few])), val["y"][few]
    stream = torch.utils.data.DataLoader(
        Batches(data, batch, seed, recut), batch_size=None, num_workers=loaders,
        prefetch_factor=4 if loaders else None, persistent_workers=loaders > 0)
    t0, step = time.time(), 0
    for x, y, o in stream:
        step += 1
        progress = step / steps
        if minutes:
            progress = max(progress, (time.time() - t0) / (60 * minutes))
        for group in opt.param_groups:
            group["lr"] = one_cycle(progress, lr)
        net.train()
        if warm:
            freeze_norms(net)
        tile, turn = losses(net, x.to(device), y.to(device), o.to(device))
        opt.zero_grad()
        (tile + 0.5 * turn).backward()
        opt.step()
        done = progress >= 1
        if step % 500 == 0 or done:
            logits, _ = infer(net, vx, device=device)
            err = (logits.argmax(1) != vy).mean()
            print(f"step {step} {time.time() - t0:.0f}s loss {tile.item():.3f} "
                  f"turn {turn.item():.3f} held-out-style val error {100 * err:.2f}%", flush=True)
            if checkpoint:
                torch.save(net.state_dict(), checkpoint)
        if done:
            return


def load_onnx_weights(net: TileNet, path: Path) -> None:
    """Start from a shipped model: its ONNX file holds each conv with its batch norm folded in,
    so the conv takes the folded weights and the norm becomes the identity (kept frozen by
    `freeze_norms`); the embedding, orientation and class weights are copied as they are."""
    import onnx
    from onnx import numpy_helper

    init = {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}
    convs = [v for v in init.values() if v.ndim == 4]
    biases = [init[n] for n in init if n.startswith("onnx::Conv") and init[n].ndim == 1]
    blocks = [m for m in net.features if isinstance(m, nn.Sequential)]
    assert len(convs) == len(biases) == len(blocks), "not this network's ONNX"
    state = net.state_dict()
    for i, (w, b) in enumerate(zip(convs, biases, strict=True)):
        state[f"features.{i}.0.weight"] = torch.from_numpy(w.copy())
        norm = f"features.{i}.1."
        state[norm + "weight"] = torch.ones_like(state[norm + "weight"])
        state[norm + "bias"] = torch.from_numpy(b.copy())
        state[norm + "running_mean"] = torch.zeros_like(state[norm + "running_mean"])
        state[norm + "running_var"] = torch.full_like(state[norm + "running_var"],
                                                      1 - blocks[i][1].eps)
    for name in state:
        if not name.startswith("features.") and name in init:
            state[name] = torch.from_numpy(init[name].copy())
    net.load_state_dict(state)


def freeze_norms(net: TileNet) -> None:
    """Batch statistics stay those of the start (a folded norm is the identity)."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d | nn.BatchNorm1d):
            m.eval()


# ---------------------------------------------------------------- export


def export(net: TileNet, path: Path, temperature: float, check: np.ndarray) -> None:
    import onnx
    import onnxruntime as ort

    net.eval()
    dummy = torch.from_numpy(check[:2])
    torch.onnx.export(net, (dummy,), str(path), input_names=["cells"], output_names=OUTPUTS,
                      dynamic_axes={k: {0: "n"} for k in ["cells", *OUTPUTS]}, opset_version=17,
                      dynamo=False)
    model = onnx.load(str(path))
    for key, value in {"classes": CLASSES, "temperature": f"{temperature:.6f}",
                       "scale": str(SCALE), "input_size": str(INPUT_SIZE)}.items():
        model.metadata_props.add(key=key, value=value)
    onnx.save(model, str(path))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(OUTPUTS, {"cells": check})
    with torch.no_grad():
        want = [t.numpy() for t in net(torch.from_numpy(check))]
    for name, g, w in zip(OUTPUTS, got, want, strict=True):
        diff = float(np.abs(g - w).max())
        print(f"onnxruntime vs torch, {name}: max abs difference {diff:.2e}")
        assert diff < 1e-3, name
    print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--workers", type=int, default=2, help="rendering processes")
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--steps", type=int, default=8000)
    ap.add_argument("--batch", type=int, default=192)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--train-chunks", type=int, default=64, help=f"at most {len(TRAIN_SEEDS)}")
    ap.add_argument("--board-chunks", type=int, default=128, help=f"at most {len(BOARD_SEEDS)}")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--loaders", type=int, default=0,
                    help="processes augmenting batches beside training (0: in line)")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="train this long, or --steps if sooner (0: no step limit); the "
                         "schedule follows the clock")
    ap.add_argument("--checkpoint", type=Path, help="save the weights here as training goes")
    ap.add_argument("--seed", type=int, default=1, help="1 gave the shipped model")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--init", type=Path,
                    help="start from this model: an ONNX file (e.g. models/tiles.onnx) or a "
                         "--checkpoint (with --steps 0: only calibrate and export it)")
    ap.add_argument("--recut", type=float, default=RECUT, help="share of crops recut")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.benchmark = True
    paths = render_cache(args.cache, BOARD_SEEDS[:args.board_chunks], args.workers,
                         render_board_chunk, "board")
    paths += render_cache(args.cache, TRAIN_SEEDS[:args.train_chunks], args.workers)
    data, val = load_split(paths, keep_held_out=False), load_split(paths, keep_held_out=True)
    print(f"training crops {len(data['y'])}, held-out-style validation crops {len(val['y'])}")
    net = TileNet()
    warm = bool(args.init) and args.init.suffix == ".onnx"
    if warm:
        load_onnx_weights(net, args.init)
    elif args.init:
        net.load_state_dict(torch.load(args.init, map_location="cpu"))
    print(f"parameters {sum(p.numel() for p in net.parameters())}, device {args.device}")
    net.to(args.device)
    if args.steps or args.minutes:
        train(net, data, val, args.steps or 10**9, args.batch, args.lr, args.seed, warm=warm,
              recut=args.recut, device=args.device, loaders=args.loaders, minutes=args.minutes,
              checkpoint=args.checkpoint)
    vx = preprocess(list(val["images"]))
    logits, _ = infer(net, vx, device=args.device)
    temperature = fit_temperature(logits, val["y"])
    print(f"temperature {temperature:.3f}")
    export(net.cpu(), args.out, temperature, vx[:64])


if __name__ == "__main__":
    main()
