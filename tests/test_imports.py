"""`import rattle` must be light: no torch, spaCy, llama.cpp or numpy on import."""

import subprocess
import sys

HEAVY = ["torch", "spacy", "llama_cpp", "numpy", "transformers", "nltk", "httpx", "typer", "rich"]


def test_import_rattle_loads_no_heavy_module() -> None:
    code = (
        "import sys, time; t=time.perf_counter(); import rattle; dt=time.perf_counter()-t; "
        f"print(dt); print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    seconds, loaded = out.stdout.strip().split("\n") + [""] * (2 - len(out.stdout.strip().split("\n")))
    assert loaded == ""
    assert float(seconds) < 0.5


def test_registry_lookups_stay_light() -> None:
    code = (
        "import sys; from rattle import registry; "
        "[registry.entries(k) for k in registry.KINDS]; "
        "print(','.join(m for m in ['torch','spacy','llama_cpp','nltk','transformers'] if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
