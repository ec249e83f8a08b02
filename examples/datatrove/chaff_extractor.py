"""A datatrove pipeline step that removes each page's source template with chaff: every document is
cleaned with its own source's rules (found from its URL's host, as `chaff clean --rules-dir` routes
it), from a folder of rules files that `chaff mine --all CRAWL --rules-dir DIR` wrote."""

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.base import PipelineStep

import chaff


class ChaffExtractor(PipelineStep):
    """Cleans `doc.text` (the page's HTML, as WarcReader yields it) with its source's rules, in batches on
    all cores (the GIL released). `output="text"` writes the text a reader sees, "cleaned" the page
    without its template's text. A page of a source without rules passes unchanged
    (`unknown="pass"`) or is dropped ("skip")."""

    name = "🧹 chaff"
    type = "🛢 - EXTRAC"

    def __init__(self, rules_dir, output="text", include_pending=False, unknown="skip", batch=256, group="host"):
        super().__init__()
        self.rules_dir, self.group = str(rules_dir), group
        self.output, self.include_pending, self.unknown, self.batch = output, include_pending, unknown, batch

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        ws = chaff.Workspace.load(self.rules_dir, group=self.group)
        batch = []
        for doc in data:
            batch.append(doc)
            if len(batch) == self.batch:
                yield from self._clean(ws, batch)
                batch = []
        yield from self._clean(ws, batch)

    def _clean(self, ws, docs):
        if not docs:
            return
        urls = [d.metadata.get("url") for d in docs]
        sources = [d.metadata.get("source") for d in docs]
        texts = ws.clean_many(
            [d.text for d in docs],
            sources=sources,
            urls=urls,
            include_pending=self.include_pending,
            output=self.output,
            unknown=self.unknown,
        )
        for doc, text in zip(docs, texts):
            self.stat_update("total")
            if text is None:
                self.stat_update("no_rules")
                continue
            with self.track_time():
                doc.text = text
            self.stat_update("forwarded")
            yield doc
