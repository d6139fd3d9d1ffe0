#!/usr/bin/python3
"""Prints the whole game of docs/protocol.md ("A whole game"): two
connections play Nim's Beginner 2-3 against a running `tabula serve`.
Usage: scripts/protocol-transcript.py [ws://127.0.0.1:7878]
Each line is a message as sent (→) or received (←); the welcome's list of
games and the level's description and text are shortened to "...".
Needs Python's websockets (Debian's python3-websockets)."""
import asyncio
import json
import sys

import websockets


def shorten(text):
    message = json.loads(text)
    if message.get("type") == "welcome":
        message["games"] = message["games"][:1] + ["..."]
    if message.get("type") == "state":
        message["level"]["description"] = "..."
        message["level"]["text"] = "..."
    return json.dumps(message, ensure_ascii=False)


async def main(url):
    ann = await websockets.connect(url)
    bob = await websockets.connect(url)
    who = {id(ann): "ann", id(bob): "bob"}

    async def send(c, message):
        print(f"{who[id(c)]} → {json.dumps(message, ensure_ascii=False)}")
        await c.send(json.dumps(message))

    async def hear(c, until):
        while True:
            text = await asyncio.wait_for(c.recv(), 5)
            print(f"{who[id(c)]} ← {shorten(text)}")
            if until(json.loads(text)):
                return json.loads(text)

    async def quiet(c):
        try:
            while True:
                text = await asyncio.wait_for(c.recv(), 0.3)
                print(f"{who[id(c)]} ← {shorten(text)}")
        except asyncio.TimeoutError:
            pass

    await send(ann, {"type": "hello", "version": 1, "name": "Ann"})
    await hear(ann, lambda m: m["type"] == "welcome")
    await send(bob, {"type": "hello", "version": 1, "name": "Bob"})
    await hear(bob, lambda m: m["type"] == "welcome")
    await send(ann, {"type": "create", "id": 1, "level": "nim/beginner-2-3", "seats": ["person", "person"]})
    table = (await hear(ann, lambda m: m["type"] == "created"))["table"]
    await send(ann, {"type": "join", "id": 2, "table": table, "seat": 1})
    await quiet(ann)
    await send(bob, {"type": "join", "id": 1, "table": table})
    await quiet(bob)
    await quiet(ann)
    moves = [(ann, 10, {"pile": 1, "count": 1}), (bob, 11, {"pile": 0, "count": 1}),
             (ann, 12, {"pile": 1, "count": 1}), (bob, 13, {"pile": 1, "count": 1}),
             (ann, 14, {"pile": 0, "count": 1})]
    for ply, (c, rid, mv) in enumerate(moves):
        await send(c, {"type": "move", "id": rid, "table": table, "move": mv, "ply": ply})
        for other in (ann, bob):
            await hear(other, lambda m: m["type"] == "moved" and m["ply"] == ply + 1)


asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:7878"))
