"""Test doubles shipped with rattle (STYLE.md 11): a fake OpenAI-compatible server."""
