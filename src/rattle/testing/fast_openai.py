"""A minimal asyncio OpenAI-compatible server for throughput benchmarks (127.0.0.1 only).

Answers every chat completion with the last user message after ``latency`` seconds, using
``asyncio.sleep`` so thousands of requests can wait at once; keep-alive HTTP/1.1. For fault
injection use ``fake_openai.FakeOpenAIServer`` instead.

Usage: python -m rattle.testing.fast_openai --latency 0.05 --port-file PATH
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os


async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, latency: float) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            body = json.loads(await reader.readexactly(length)) if length else {}
            await asyncio.sleep(latency)
            users = [m for m in body.get("messages", []) if m.get("role") == "user"]
            text = str(users[-1]["content"]) if users else ""
            data = json.dumps({
                "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": len(text.split()), "completion_tokens": len(text.split())},
            }).encode()
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                         + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, ValueError):
        pass
    finally:
        writer.close()


async def serve(latency: float, port_file: str) -> None:
    server = await asyncio.start_server(lambda r, w: handle(r, w, latency), "127.0.0.1", 0,
                                        backlog=1024)
    port = server.sockets[0].getsockname()[1]
    with open(port_file + ".tmp", "w") as fh:
        fh.write(f"http://127.0.0.1:{port}/v1")
    os.replace(port_file + ".tmp", port_file)
    async with server:
        await server.serve_forever()


def main() -> None:  # pragma: no cover - run as a subprocess by the benchmarks
    parser = argparse.ArgumentParser(description="Fast fake OpenAI-compatible server.")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    asyncio.run(serve(args.latency, args.port_file))


if __name__ == "__main__":  # pragma: no cover
    main()
