"""The three studies rattle implements, cited as papers (title, authors, year, venue, arXiv)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """A paper as the product cites it: ``short`` in tables, ``citation`` where it is named."""

    key: str
    title: str
    authors: str  # "First et al." form
    year: int
    venue: str
    arxiv: str

    @property
    def short(self) -> str:
        return f"{self.authors} {self.year}"

    @property
    def url(self) -> str:
        return f"https://arxiv.org/abs/{self.arxiv}"

    @property
    def citation(self) -> str:
        return f"{self.authors} ({self.year}). {self.title}. {self.venue}. arXiv:{self.arxiv}"


RCC = Paper("rcc", "Assessing Hidden Risks of LLMs: An Empirical Study on Robustness, "
            "Consistency, and Credibility", "Ye et al.", 2023, "arXiv preprint", "2305.10235")
FACTOID = Paper("factoid", "Evaluating Robustness of Generative Search Engine on Adversarial "
                "Factoid Questions", "Hu et al.", 2024, "Findings of ACL 2024", "2403.12077")
RALM = Paper("ralm", "Toward Robust RALMs: Revealing the Impact of Imperfect Retrieval on "
             "Retrieval-Augmented Language Models", "Park & Lee", 2024, "TACL 2024", "2410.15107")
PAPERS = {p.key: p for p in (RCC, FACTOID, RALM)}

# The factoid paper's names of its attacks (Figure 1, Table 2), for tables.
FACTOID_ATTACK_TITLES = {
    "multihop": "Multihop Extension", "temporal": "Temporal Modification",
    "semantic": "Semantic Replacement", "distraction": "Distraction Injection",
    "exaggeration": "Facts Exaggeration", "reversal": "Facts Reversal",
    "numerical": "Numerical Manipulation", "cloze": "Cloze Test", "question": "Question form",
}
