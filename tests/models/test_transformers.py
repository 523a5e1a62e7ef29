"""The transformers backend on a tiny randomly initialised Llama saved to a local folder."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import pytest

from rattle.errors import ConfigError
from rattle.items import Message
from rattle.models import ChatRequest, ScoreRequest, load_model

WORDS = ["<pad>", "<eos>", "<unk>", "user", "assistant", "system", ":", "what", "is", "the",
         "capital", "of", "france", "paris", "lyon", "?", "answer"]
TEMPLATE = ("{% for m in messages %}{{ m['role'] }} : {{ m['content'] }} {% endfor %}"
            "{% if add_generation_prompt %}assistant : {% endif %}")


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch  # the transformers extra is part of the test environment (make test)
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-llama")
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(WORDS)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<eos>", pad_token="<pad>",
                                   unk_token="<unk>")
    fast.chat_template = TEMPLATE
    fast.save_pretrained(folder)
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(WORDS), hidden_size=16, intermediate_size=32,
                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                         max_position_embeddings=64, eos_token_id=1, pad_token_id=0)
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder


def test_generates_deterministically_and_scores(tiny_model: Path) -> None:
    model = load_model(f"transformers/{tiny_model}")
    req = ChatRequest((Message("user", "what is the capital of france ?"),))
    a, b = asyncio.run(model.generate([req, req]))
    assert a.ok and a.text == b.text
    assert a.usage.prompt_tokens > 5 and a.usage.completion_tokens > 0
    [[p, q]] = asyncio.run(model.loglikelihood([  # type: ignore[attr-defined]
        ScoreRequest(req.messages, ("paris", "lyon ?"))]))
    assert math.isfinite(p) and math.isfinite(q) and p < 0 and q < 0
    # The same sums computed by hand from the model's logits.
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tiny_model)
    lm = AutoModelForCausalLM.from_pretrained(tiny_model)
    prompt = tok.apply_chat_template([{"role": "user", "content": req.messages[0].content}],
                                     add_generation_prompt=True, tokenize=False)
    prompt_ids = tok(prompt, add_special_tokens=False).input_ids
    for text, got in (("paris", p), ("lyon ?", q)):
        cont = tok(text, add_special_tokens=False).input_ids
        with torch.no_grad():
            logp = torch.log_softmax(lm(torch.tensor([prompt_ids + cont])).logits[0].double(), -1)
        want = sum(float(logp[len(prompt_ids) - 1 + j, t]) for j, t in enumerate(cont))
        assert got == pytest.approx(want, abs=1e-6)


def test_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_model(f"transformers/{tmp_path / 'nope'}")
    assert "does not exist" in str(info.value)
