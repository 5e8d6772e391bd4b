"""What a starting daemon says of the other gm processes on its database: only another `gm run`
is a daemon sharing the work (a WARNING, in case it was started by mistake); a cron tick or a
piped mail passing by is named as what it is."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from gm.cli import run_cmd, startup


@pytest.mark.parametrize("others, warned, told", [
    (["gm receive h:11", "gm run h:12"], "another gm daemon works on this database (gm run h:12)",
     "other gm processes on this database now: gm receive h:11"),
    (["gm receive h:11", "gm tick h:13"], None, "other gm processes on this database now: gm receive h:11, gm tick h:13"),
])
def test_only_a_gm_run_is_called_a_daemon(monkeypatch, caplog, others, warned, told) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(startup, "register", lambda engine, command: None)
    monkeypatch.setattr(startup, "others", lambda engine, command: others)
    app = SimpleNamespace(db=SimpleNamespace(engine=SimpleNamespace(dialect=SimpleNamespace(name="postgresql"))))
    with caplog.at_level(logging.INFO, logger="gm.run"):
        run_cmd._say_role(app, 30.0)  # type: ignore[arg-type]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == (1 if warned else 0)
    if warned:
        assert warnings[0].startswith(warned) and "gm receive" not in warnings[0]
    assert told in [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
