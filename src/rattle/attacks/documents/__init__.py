"""Document attacks for retrieval-augmented QA (Park & Lee 2024, arXiv:2410.15107, §5.3–5.4)."""
