#!/usr/bin/env python3
# Builds the Robot board levels whose homes are hidden (RULES.md, "Hidden
# homes"), and the lesson on candidate homes. Two-player levels have
# 180-degree symmetry: player 1's robots A (rule A) and B (rule B) and their
# candidate homes, player 2's C and D where a half turn of the board puts
# them. The four-player level has 90-degree symmetry: each player a rule A
# and a rule B robot, a quarter turn apart.
import os

L = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'levels', 'robots') + '/'
TURN = {'^': '>', '>': 'v', 'v': '<', '<': '^'}
FACE = ['North', 'East', 'South', 'West']


def write(path, name, desc, grid, robots, cap, homes):
    out = ['Robots(', f'    name: "{name}",', f'    description: "{desc}",', '    board: [']
    out += [f'        "{"".join(r)}",' for r in grid]
    out += ['    ],', '    robots: [']
    out += [f"        (id: '{i}', at: ({p[0]}, {p[1]}), facing: {f}, rule: {r}, player: {pl}),"
            for i, p, f, r, pl in robots]
    out += ['    ],']
    if cap:
        out.append(f'    move_cap: {cap},')
    if homes != 'Shown':
        out.append(f'    homes: {homes},')
    out.append(')')
    open(L + path, 'w').write('\n'.join(out) + '\n')


def place(grid, at, ch, what):
    x, y = at
    # The centre of a symmetric board is its own image.
    assert grid[y][x] == '.' or (grid[y][x] == ch and not ch.isalpha()), (what, ch, at, grid[y][x])
    grid[y][x] = ch


def two(path, name, desc, top, a, b, cands_a, cands_b, cap=None, homes='Hidden', c_at=None, d_at=None):
    """top: the top half's rows; a, b: ((x, y), facing) of A and B;
    cands_a, cands_b: their candidate homes anywhere on the board; c_at,
    d_at: where C and D start instead of the half turn of A and B (nearer
    the middle, for the second player's move less)."""
    w, h2 = len(top[0]), len(top)
    h = 2 * h2
    grid = [list(r) for r in top] + [[None] * w for _ in range(h2)]
    flip = {'^': 'v', 'v': '^', '>': '<', '<': '>'}
    for y in range(h2):
        for x in range(w):
            c = top[y][x]
            grid[h - 1 - y][w - 1 - x] = flip.get(c, c)
    rot = lambda p: (w - 1 - p[0], h - 1 - p[1])
    half = lambda f: FACE[(FACE.index(f) + 2) % 4]
    for p in cands_a:
        place(grid, p, 'a', name)
        place(grid, rot(p), 'c', name)
    for p in cands_b:
        place(grid, p, 'b', name)
        place(grid, rot(p), 'd', name)
    robots = [('A', a[0], a[1], 'A', 1), ('B', b[0], b[1], 'B', 1),
              ('C', c_at or rot(a[0]), half(a[1]), 'A', 2), ('D', d_at or rot(b[0]), half(b[1]), 'B', 2)]
    for _, p, _, _, _ in robots:
        assert grid[p[1]][p[0]] == '.', (name, p)
    write(path, name, desc, grid, robots, cap, homes)


def four(path, name, desc, n, tiles, a, b, cands_a, cands_b, cap=None, ahead=None):
    """An n x n board: `tiles` as (x, y, char) in any place, turned three
    times; player 1's A and B, and their candidates, likewise. `ahead`
    gives, for players 2 to 4, how many tiles their robots start nearer
    the middle along their first move (later seats move later)."""
    grid = [['.'] * n for _ in range(n)]
    turn = lambda p: (n - 1 - p[1], p[0])
    robots = []
    ids = 'ABCDEFGH'
    for q in range(4):
        for x, y, c in tiles:
            p = (x, y)
            for _ in range(q):
                p = turn(p)
                c = TURN.get(c, c)
            place(grid, p, c, name)
        for k, (spec, cands) in enumerate([(a, cands_a), (b, cands_b)]):
            p, f = spec
            if ahead and q:
                dx, dy = {'North': (0, -1), 'East': (1, 0), 'South': (0, 1), 'West': (-1, 0)}[f]
                p = (p[0] + dx * ahead[q - 1][k], p[1] + dy * ahead[q - 1][k])
            for _ in range(q):
                p = turn(p)
            rid = ids[2 * q + k]
            robots.append((rid, p, FACE[(FACE.index(f) + q) % 4], 'AB'[k], q + 1))
            for c in cands:
                for _ in range(q):
                    c = turn(c)
                place(grid, c, rid.lower(), name)
    for _, p, _, _, _ in robots:
        assert grid[p[1]][p[0]] == '.', (name, p)
    write(path, name, desc, grid, robots, cap, 'Hidden')


two('11-candidate-homes.ron', '11 Candidate homes',
    "A robot's letter on several tiles marks candidate homes: each game draws one of them from its seed, and the others are plain tiles. Start a new game and the homes move.",
    ['...........', '.?.......?.', '...........', '....#.?....', '...........'],
    ((0, 0), 'South'), ((10, 0), 'West'), [(3, 5), (8, 6), (5, 8)], [(2, 6), (6, 8), (9, 4)], homes='Shown')
two('12-hidden-homes.ron', '12 Hidden homes',
    'Nobody sees the homes: each is one of a few tiles, drawn for every game. Stand on a ? tile and your robot learns which way its home lies, in its own frame; every hint is public. The first robot to step onto its own home wins.',
    ['...........', '.?.......?.', '...........', '....#.?....', '...........'],
    ((0, 0), 'South'), ((10, 0), 'West'), [(3, 5), (8, 6), (5, 8)], [(2, 6), (6, 8), (9, 4)],
    c_at=(10, 8), d_at=(0, 8))
two('13-fog-and-belts.ron', '13 Fog and belts',
    'Hidden homes among belts. A ride clears a robot\'s hints, but not what everyone learnt from them: the homes stay where the hints pointed.',
    ['.............', '.?...>>>v..?.', '........v....', '..#.....v.?..', '...?....>>...'],
    ((0, 0), 'South'), ((12, 0), 'West'), [(3, 6), (10, 7), (6, 9), (11, 5)], [(1, 9), (7, 6), (5, 5), (12, 8)])
two('14-scattered-hints.ron', '14 Scattered hints',
    'Hidden homes on open ground, hints scattered and a few broken robots. Two hints from different tiles cross: where their directions meet, the home must be.',
    ['.............', '.?....#....?.', '....?........', '..#.....#.?..', '.....?.......'],
    ((0, 0), 'South'), ((12, 0), 'West'), [(3, 6), (10, 7), (6, 9), (11, 5)], [(1, 9), (7, 6), (5, 5), (12, 8)],
    c_at=(12, 9), d_at=(0, 7))
four('15-four-in-the-fog.ron', '15 Four in the fog',
     'Four players, each with a rule A and a rule B robot, homes hidden. Hints are public: what your rival learns, you learn too.',
     13, [(1, 1, '?'), (4, 3, '?'), (6, 6, '?'), (3, 5, '#'), (5, 2, '>')],
     ((0, 0), 'South'), ((0, 3), 'East'), [(10, 2), (6, 10), (11, 8)], [(8, 4), (4, 9), (10, 11)],
     ahead=[(0, 1), (1, 1), (1, 1)])
