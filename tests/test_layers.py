"""Imports point one way: domain -> maps -> adjudicator -> variants/orders -> storage/rendering
-> game state -> commands -> services -> transport/runtime -> composition root and CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gm"
LAYERS = [
    {"gm.yamlfile", "gm.clock", "gm.config", "gm.mailsyntax", "gm.outages"},
    {"gm.domain"},
    {"gm.maps"},
    {"gm.adjudicator"},
    {"gm.variants", "gm.orders", "gm.settings", "gm.bots"},
    {"gm.store", "gm.reports", "gm.render", "gm.transport"},
    {"gm.games"},
    {"gm.commands", "gm.interchange", "gm.interchange_board"},
    {"gm.services", "gm.web"},  # gm.web: the web window, beside the mail intake
    {"gm.runtime"},
    {"gm.app", "gm.demo", "gm.cli"},
]
# The mail transport knows nothing of Diplomacy.
ISOLATED = {"gm.transport": {"gm.transport", "gm.config", "gm.outages"}}


def _package(module: str) -> str:
    parts = module.split(".")
    for size in (2, 1):
        candidate = ".".join(parts[:size])
        if any(candidate in layer for layer in LAYERS):
            return candidate
    raise AssertionError(f"{module} is in no layer: add it to tests/test_layers.py")


def _level(package: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if package in layer)


def _modules() -> list[tuple[str, Path]]:
    result = []
    for path in sorted(ROOT.rglob("*.py")):
        module = ".".join(("gm", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(".__init__")
        if module != "gm":
            result.append((module, path))
    return result


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("gm.")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gm"):
            found.append(node.module)
    return found


@pytest.mark.parametrize(("module", "path"), _modules(), ids=[m for m, _ in _modules()])
def test_imports_point_down(module: str, path: Path) -> None:
    package = _package(module)
    for imported in _imports(path):
        target = _package(imported)
        assert _level(target) <= _level(package), f"{module} imports {imported}, a higher layer"
        if package in ISOLATED:
            assert target in ISOLATED[package], f"{module} imports {imported}: the transport knows no Diplomacy"


def _strings(path: Path) -> list[str]:
    """The string constants of a module, docstrings left out (they may give examples)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings]


def test_the_core_names_no_power_province_or_season() -> None:
    words = {"England", "France", "Rome", "Spring", "Fall", "Winter", "Autumn", "London", "Paris", "Petersburg"}
    for folder in ("domain", "maps", "adjudicator"):
        for path in (ROOT / folder).rglob("*.py"):
            for text in _strings(path):
                named = words & set(text.replace("/", " ").split())
                assert not named, f"{path} names {named} in {text!r}"


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name]


def _protocols() -> set[str]:
    """The names of gm's Protocol classes."""
    found = set()
    for _, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(ast.unparse(b).split("[")[0].endswith("Protocol")
                                                      for b in node.bases):
                found.add(node.name)
    return found


def test_no_layer_probes_a_variant_for_hooks() -> None:
    """What a layer uses of a variant beyond its rules is a declared part (gm.adjudicator.parts),
    asked for by its key: never found by getattr or hasattr on a variant, nor by isinstance
    against a Protocol (none is runtime-checkable)."""
    protocols = _protocols()
    for module, path in _modules():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        assert "runtime_checkable" not in text, f"{module}: a runtime-checkable Protocol"
        for call in _calls(tree, "getattr") + _calls(tree, "hasattr"):
            probed = ast.unparse(call.args[0]) if call.args else ""
            assert "variant" not in probed.lower(), \
                f"{module}:{call.lineno} probes {probed} for {ast.unparse(call.args[1])}"
        for call in _calls(tree, "isinstance"):
            kinds = call.args[1] if len(call.args) > 1 else None
            names = {n.id for n in ast.walk(kinds) if isinstance(n, ast.Name)} if kinds else set()
            assert not names & protocols, f"{module}:{call.lineno} isinstance against a Protocol"


def _variant_targets(tree: ast.AST) -> list[str]:
    """Attributes of a variant a module assigns to (``variant.x = ...``, ``self.variant.x[k] = ...``)."""
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            while isinstance(target, ast.Subscript):
                target = target.value
            if isinstance(target, ast.Attribute) and "variant" in ast.unparse(target.value).lower():
                found.append(ast.unparse(target))
    return found


def test_no_layer_keeps_its_cache_on_the_variant() -> None:
    """Each layer keeps what it builds from a variant itself, by the variant
    (gm.adjudicator.kept.PerVariant): no module above the variants writes to one, and the
    variant's contract holds no other layer's memo."""
    for module, path in _modules():
        if _package(module) in ("gm.adjudicator", "gm.variants"):
            continue
        written = _variant_targets(ast.parse(path.read_text(encoding="utf-8")))
        assert not written, f"{module} writes {written} on a variant"
    variant = ast.parse((ROOT / "adjudicator" / "variant.py").read_text(encoding="utf-8"))
    attributes = {ast.unparse(t) for n in ast.walk(variant) if isinstance(n, (ast.Assign, ast.AnnAssign))
                  for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Attribute)}
    assert not {a for a in attributes if any(w in a for w in ("memo", "verdict", "grammar", "painter", "codec"))}
