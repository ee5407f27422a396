"""The import rules of docs/architecture.md, checked on every module's imports (parsed, so an
import inside a function or under TYPE_CHECKING counts too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Folder -> the package it is installed as (pyproject.toml's package-dir).
PACKAGES = {"engine": "tilecast.engine", "vision": "tilecast.vision",
            "plugins": "tilecast.plugins", "server": "tilecast.server", "tilecast": "tilecast",
            "models": "tilecast.models"}
HOOK_MODULES = ("tilecast.hookspecs", "tilecast.events", "tilecast.files")
DATA_LOADERS = ("tilecast.config", "tilecast.lexicons")


def room(module: str) -> str:
    """The room (docs/architecture.md's table) a module of ours lives in."""
    for prefix, name in (("tilecast.engine", "engine"), ("tilecast.vision", "vision"),
                         ("tilecast.plugins", "plugins"), ("tilecast.server", "server"),
                         ("tilecast.models", "models"), ("tilecast.commands", "cli"),
                         ("tilecast.cli", "cli")):
        if module == prefix or module.startswith(prefix + "."):
            return name
    return "core"


def within(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def allowed(importer: str, imported: str) -> bool:
    """Whether docs/architecture.md lets `importer` import `imported` (both ours)."""
    here, there = room(importer), room(imported)
    if here == there and here != "plugins":
        return True
    match here:
        case "engine":
            return False
        case "vision":
            return there == "engine" or (within(importer, "tilecast.vision.render")
                                         and within(imported, *DATA_LOADERS))
        case "plugins":
            return importer == imported or there == "engine" or within(imported, *HOOK_MODULES)
        case "core":
            return there in ("engine", "vision") or (
                there == "plugins" and importer == "tilecast.pluginmanager")
        case "cli":
            return True
        case "server":
            return there in ("engine", "vision", "core")
        case "models":
            return there in ("engine", "vision") or within(imported, "tilecast.config")
    return False


def modules() -> dict[str, Path]:
    found = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


MODULES = modules()


def imports(module: str, path: Path) -> set[str]:
    """Every module of ours that `module` imports; `from package import name` counts as the
    submodule when `name` is one."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in MODULES else base)
    return {m for m in out if within(m, "tilecast")}


def test_the_rooms_are_the_ones_the_page_names():
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for name in ("engine", "vision", "plugins", "core", "cli", "server", "models"):
        assert f"\n| {name} |" in page, name
    assert {room(m) for m in MODULES} == {"engine", "vision", "plugins", "core", "cli",
                                          "server", "models"}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_keeps_to_its_rooms_imports(module):
    wrong = sorted(m for m in imports(module, MODULES[module]) if not allowed(module, m))
    assert not wrong, f"{module} ({room(module)}) may not import {wrong}"


@pytest.mark.parametrize(
    ("importer", "imported", "ok"),
    [
        ("tilecast.engine.game", "tilecast.config", False),
        ("tilecast.vision.reader", "tilecast.engine.infer", True),
        ("tilecast.vision.reader", "tilecast.session", False),
        ("tilecast.vision.render.cells", "tilecast.config", True),
        ("tilecast.plugins.alerts", "tilecast.plugins.broadcast", False),
        ("tilecast.plugins.annotation", "tilecast.files", True),
        ("tilecast.plugins.console", "tilecast.session", False),
        ("tilecast.server.app", "tilecast.plugins.broadcast", False),
        ("tilecast.server.boards", "tilecast.opening", True),
        ("tilecast.session", "tilecast.server.app", False),
        ("tilecast.models.eval_classifier", "tilecast.commands.enroll", False),
        ("tilecast.commands.serve", "tilecast.server.app", True),
    ],
)
def test_the_rules_say_what_the_page_says(importer, imported, ok):
    assert allowed(importer, imported) is ok
