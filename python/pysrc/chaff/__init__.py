"""chaff: learn each news source's template from its documents, and remove it.

The Python face of the chaff engine: the same rules files and, for the same rules, the same output as the
``chaff`` command line, byte for byte::

    import chaff
    rules = chaff.Rules.load("rules/sevendays.toml")
    text = rules.clean(doc, include_pending=True)
    texts = rules.clean_many(docs, include_pending=True)   # all cores, GIL released
    spans = rules.explain(doc)                             # what was removed, and by which rules
    change = rules.diff(other, docs)                       # what a rules change does: chaff diff --json
    fresh = chaff.mine(history, source="sevendays")        # the automatic rules of `chaff mine`
    ws = chaff.Workspace.load("rules/")                    # every source's rules: chaff clean --rules-dir
    text = ws.clean(page, url="https://news.example.com/a", include_pending=True)
"""

from ._chaff import BatchError, ChaffError, Rules, Workspace, __version__, mine, source_of

__all__ = ["BatchError", "ChaffError", "Rules", "Workspace", "mine", "source_of", "__version__"]
