"""The adjudicator: one phase in, one report out (``engine.adjudicate``).

Its hot modules are compiled when gm is installed (setup.py; see ``gm/__init__.py``).
"""
