#!/usr/bin/env python3
"""A bot for tabula's game server, written from docs/protocol.md alone.

It plays one seat of one table to the end of the game, choosing among the
moves the server says are legal (at random, or always the first with
--first), and prints one line per move and one for the result:

    tabula_bot.py ws://127.0.0.1:7878 --create nim/beginner-2-3     # open a table, sit at it
    tabula_bot.py ws://127.0.0.1:7878 --table t5fa6ed99c829          # take the first open seat
    tabula_bot.py ws://127.0.0.1:7878 --create russian_bank/01-shuffled-deal --seats person,greedy
    tabula_bot.py ws://127.0.0.1:7878 --token 0de5c6... --table t5fa6ed99c829   # come back

Output lines: `table <id>`, `seat <n> token <token>`, `move <ply> seat <n>: <words>`
for every move played at the table (`(mine)` for this bot's), and finally
`result <json>` (keys sorted). Exits 0 once the game has ended.

Standard library and `websockets` (Debian's python3-websockets, 10.x) only.
"""

import argparse
import asyncio
import json
import random
import sys
import time

import websockets

RETRY_EVERY = 0.5  # seconds between attempts to reconnect
RETRY_FOR = 60.0  # give up reconnecting after this long


class Refused(Exception):
    """The server answered a request of ours with an `error`."""


class Bot:
    def __init__(self, args):
        self.args = args
        self.ws = None
        self.next_id = 0
        self.table = args.table
        self.seat = None
        self.token = args.token
        # What the seat knows of the table, from the last `state` or `moved`.
        self.ply = None
        self.legal = []
        self.pending = None  # (request id, ply it was sent from) of our unanswered move
        self.last_move = None  # the move of `pending`
        self.waiting = False  # a move was refused as stale: wait for news before the next
        self.rng = random.Random(args.random_seed)

    def say(self, line):
        print(line, flush=True)

    async def send(self, message):
        """Sends one request with a fresh `id`; returns the id."""
        self.next_id += 1
        message["id"] = self.next_id
        await self.ws.send(json.dumps(message))
        return self.next_id

    async def recv(self):
        return json.loads(await self.ws.recv())

    async def request(self, message):
        """Sends a request and waits for its answer (the message with our `re`).
        Messages about the table that arrive meanwhile are handled as usual."""
        rid = await self.send(message)
        while True:
            answer = await self.recv()
            if answer.get("re") == rid:
                if answer["type"] == "error":
                    raise Refused(f"{answer['code']}: {answer['message']}")
                return answer
            await self.handle(answer)

    async def connect(self):
        """Opens the connection and says hello (the protocol's first message)."""
        self.ws = await websockets.connect(self.args.url, max_size=1 << 20)
        self.next_id = 0
        welcome = await self.request({"type": "hello", "version": 1, "name": self.args.name})
        if welcome["type"] != "welcome":
            raise Refused(f"expected welcome, got {welcome}")

    async def sit_down(self):
        """Creates a table if asked, then joins it (or resumes by token)."""
        if self.token:
            joined = await self.request({"type": "resume", "token": self.token})
        else:
            if self.args.create or self.args.level_text:
                create = {"type": "create"}
                if self.args.level_text:
                    with open(self.args.level_text, encoding="utf-8") as f:
                        create["level_text"] = f.read()
                else:
                    create["level"] = self.args.create
                if self.args.seats:
                    create["seats"] = self.args.seats.split(",")
                created = await self.request(create)
                self.table = created["table"]
                self.say(f"table {self.table}")
            join = {"type": "join", "table": self.table}
            if self.args.seat is not None:
                join["seat"] = self.args.seat
            joined = await self.request(join)
        self.table, self.seat, self.token = joined["table"], joined["seat"], joined["token"]
        self.say(f"seat {self.seat} token {self.token}")
        self.pending = None  # after a drop, the `state` that follows says where we are

    async def handle(self, message):
        """Takes in one message from the server; returns the result once the game is over."""
        kind = message["type"]
        if message.get("table") not in (None, self.table):
            return None  # not our table (we follow only one, but be safe)
        if kind == "state":
            if message["seat"] != self.seat:
                return None
            self.ply, self.legal = message["ply"], message["legal"]
            self.pending, self.waiting = None, False  # a fresh state (join, resume, take-back)
        elif kind == "moved":
            mine = "  (mine)" if message["seat"] == self.seat else ""
            self.say(f"move {message['ply']} seat {message['seat']}: {message['says']}{mine}")
            self.ply, self.legal, self.waiting = message["ply"], message["legal"], False
            if self.pending and message.get("re") == self.pending[0]:
                self.pending = None
        elif kind == "ended":
            return message["result"]
        elif kind == "error":
            # A refused move: `stale` or `not_your_turn` mean the table moved on
            # (e.g. a Stop); the next `moved` tells us where. Nothing changed.
            self.say(f"refused: {message['code']}: {message['message']}")
            if self.pending and message.get("re") == self.pending[0]:
                sent_from = self.pending[1]
                self.pending = None
                if self.ply == sent_from:  # no news since we sent it
                    if message["code"] in ("stale", "not_your_turn"):
                        self.waiting = True  # the `moved` that made it stale is on its way
                    else:  # the rules refused a move `legal` offered: try another one
                        self.legal = [m for m in self.legal if m["move"] != self.last_move]
        # `seats`, `joined`, `take_back_asked`, `pong` and the like need nothing.
        return message.get("result") if kind in ("state", "moved") else None

    def choose(self):
        """One of the legal moves: the first with --first, else at random."""
        if self.args.first:
            return self.legal[0]
        return self.rng.choice(self.legal)

    async def play(self):
        """Plays until the game ends; returns its result."""
        while True:
            if self.legal and self.pending is None and not self.waiting:
                choice = self.choose()
                self.last_move = choice["move"]
                rid = await self.send({"type": "move", "table": self.table,
                                       "seat": self.seat, "move": choice["move"], "ply": self.ply})
                self.pending = (rid, self.ply)
            try:
                # Waiting after a refusal is bounded: with no news in 5 s, try again.
                message = await asyncio.wait_for(self.recv(), 5.0 if self.waiting else None)
            except asyncio.TimeoutError:
                self.waiting = False
                continue
            result = await self.handle(message)
            if result is not None:
                return result

    async def run(self):
        """Connects, sits down and plays; reconnects with the token on a drop."""
        await self.connect()
        await self.sit_down()
        while True:
            try:
                return await self.play()
            except (websockets.ConnectionClosed, OSError) as e:
                self.say(f"connection lost ({e}); coming back with the token")
                await self.reconnect()

    async def reconnect(self):
        """Tries every RETRY_EVERY seconds, for at most RETRY_FOR seconds."""
        give_up = time.monotonic() + RETRY_FOR
        while True:
            try:
                await self.connect()
                await self.sit_down()  # resumes: self.token is set
                return
            except (websockets.ConnectionClosed, websockets.InvalidHandshake, OSError,
                    asyncio.TimeoutError) as e:
                if time.monotonic() + RETRY_EVERY > give_up:
                    raise SystemExit(f"could not reconnect for {RETRY_FOR:.0f} s: {e}")
                await asyncio.sleep(RETRY_EVERY)


def main():
    p = argparse.ArgumentParser(description="Plays one seat of a tabula table to the end.")
    p.add_argument("url", help="the server, e.g. ws://127.0.0.1:7878")
    p.add_argument("--table", help="the table to join (or to resume, with --token)")
    p.add_argument("--seat", type=int, help="the seat to join (default: the first open one)")
    p.add_argument("--create", metavar="LEVEL", help="create a table of this level (as `levels` names it)")
    p.add_argument("--level-text", metavar="FILE", help="create a table from this level file's text")
    p.add_argument("--seats", help="with --create: one entry a seat, e.g. person,greedy")
    p.add_argument("--token", help="come back to the seat this token holds")
    p.add_argument("--name", default="python bot", help="the name others see")
    p.add_argument("--first", action="store_true", help="always play the first legal move")
    p.add_argument("--random-seed", type=int, help="seed for the random choice of moves")
    args = p.parse_args()
    if not (args.table or args.create or args.level_text or args.token):
        p.error("say --table, --create, --level-text or --token")
    bot = Bot(args)
    try:
        result = asyncio.run(bot.run())
    except Refused as e:
        print(f"refused: {e}", file=sys.stderr)
        return 1
    bot.say("result " + json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
