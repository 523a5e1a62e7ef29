"""Token prices, for cost estimates (dry runs), cost accounting and ``--max-cost``.

Prices are USD per million tokens (prompt, completion). Providers registered with
``free=True`` (local backends) cost nothing. The table
holds OpenAI's published list prices for a few models (gpt-4o-mini since July 2024, gpt-4o
since August 2024); prices change, so ``--price IN,OUT`` overrides it, and an API model not in
the table has an unknown cost unless a price is given.
"""

from __future__ import annotations

from rattle.errors import ConfigError

PRICES_PER_MTOK: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
}

def parse_price(text: str) -> tuple[float, float]:
    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        raise ConfigError(f"--price {text!r} must be 'PROMPT,COMPLETION' in USD per million tokens") from None
    return a, b


def price_for(model_spec: str | None, override: str | None = None) -> tuple[float, float] | None:
    """USD per million (prompt, completion) tokens of ``model_spec``: the override, nothing
    for providers registered as free (local models), the table for known API models, else
    unknown (None). ``None`` as spec (a user's own service) has an unknown cost."""
    if override:
        return parse_price(override)
    if model_spec is None:
        return None
    from rattle import registry

    provider, _, rest = model_spec.partition("/")
    if registry.get("model", provider.split("?")[0]).meta.get("free"):
        return (0.0, 0.0)
    name = rest.split("?")[0]
    return PRICES_PER_MTOK.get(name)


def cost(price: tuple[float, float] | None, prompt_tokens: int, completion_tokens: int) -> float | None:
    if price is None:
        return None
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1e6
