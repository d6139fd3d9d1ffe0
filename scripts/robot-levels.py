#!/usr/bin/env python3
# Builds the Robot board levels 01-15 (05, the three-player belt chain, and
# 10, the four-player race, are written by hand). Two-player levels have
# 180-degree symmetry: player 1's robots A (rule A) and B (rule B) and their
# homes, player 2's C and D where a half turn of the board puts them. A
# robot's home may be several candidate tiles, one drawn per game, and a
# level may hide its homes (RULES.md, "Hidden homes"). The four-player
# hidden-home level has 90-degree symmetry: each player a rule A and a rule
# B robot, a quarter turn apart.
import os

L = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'levels', 'robots') + '/'
TURN = {'^': '>', '>': 'v', 'v': '<', '<': '^'}
FACE = ['North', 'East', 'South', 'West']


def write(path, name, desc, grid, robots, swaps, cap, homes):
    # Levels up to 11 teach one idea each; the later ones are for playing.
    group = 'Lesson' if int(path[:2]) <= 11 else 'Game'
    out = ['Robots(', f'    name: "{name}",', f'    description: "{desc}",']
    if group != 'Game':
        out.append(f'    group: {group},')
    out.append('    board: [')
    out += [f'        "{"".join(r)}",' for r in grid]
    out += ['    ],', '    robots: [']
    out += [f"        (id: '{i}', at: ({p[0]}, {p[1]}), facing: {f}, rule: {r}, player: {pl}),"
            for i, p, f, r, pl in robots]
    out += ['    ],']
    if swaps:
        out.append(f'    swaps: {swaps},')
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


def two(path, name, desc, top, a, b, ha, hb, swaps=0, cap=None, homes='Shown', c_at=None, d_at=None):
    """top: the top half's rows; a, b: ((x, y), facing) of A and B; ha, hb:
    their home, or a list of candidate homes, anywhere on the board; c_at,
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
    many = lambda hs: hs if isinstance(hs, list) else [hs]
    for p in many(ha):
        place(grid, p, 'a', name)
        place(grid, rot(p), 'c', name)
    for p in many(hb):
        place(grid, p, 'b', name)
        place(grid, rot(p), 'd', name)
    robots = [('A', a[0], a[1], 'A', 1), ('B', b[0], b[1], 'B', 1),
              ('C', c_at or rot(a[0]), half(a[1]), 'A', 2), ('D', d_at or rot(b[0]), half(b[1]), 'B', 2)]
    for _, p, _, _, _ in robots:
        assert grid[p[1]][p[0]] == '.', (name, p)
    write(path, name, desc, grid, robots, swaps, cap, homes)


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
    write(path, name, desc, grid, robots, 0, cap, 'Hidden')


two('01-first-steps.ron', '01 First steps',
    'Walk a robot to its home: the tile with its letter in lower case. Each player has a rule A robot (A, C) and a rule B robot (B, D); the first robot home wins.',
    ['........', '..?.....', '........'], ((0, 2), 'East'), ((7, 0), 'South'), (5, 2), (2, 0))
two('02-rule-a-and-rule-b.ron', '02 Rule A and rule B',
    'A and C step one tile any way. B and D walk up to three tiles straight ahead, or turn a quarter, half or three quarters counter-clockwise. Which of your two robots is nearer home?',
    ['..........', '..........', '..........'], ((1, 1), 'North'), ((8, 2), 'West'), (8, 0), (1, 2))
two('03-belts.ron', '03 Belts',
    'Step onto a conveyor and it carries you, tile by tile, to the first tile that is not a conveyor. A walk that meets a free conveyor ends there.',
    ['..?........', '.>>>>>>>...', '...........', '...?.......'], ((0, 0), 'East'), ((0, 3), 'North'), (9, 0), (10, 3))
two('04-corners.ron', '04 Corners',
    'Where a belt turns, the robot on it turns by the same angle: watch which way B and D face after a ride.',
    ['..?.........', '.>>>>v......', '.....v......', '.....>>>v...', '........v...'], ((0, 0), 'East'), ((0, 2), 'North'), (11, 0), (9, 4))
two('06-merging-belts.ron', '06 Merging belts',
    'Two belts feed one tile. When two robots would enter the same tile at once, neither moves: walk off and find another way.',
    ['.?.......?.', '.>>>>.<<<<.', '.....v.....', '...........'], ((0, 0), 'East'), ((10, 0), 'West'), (4, 3), (6, 3))
two('07-hints.ron', '07 Hint tiles',
    'Stand on a ? tile and your robot learns where its home lies, in its own frame: ahead, ahead right, right, behind right, behind, behind left, left or ahead left. A belt ride makes it forget.',
    ['...........', '.?.......?.', '...........', '.....?.....'], ((0, 0), 'South'), ((10, 0), 'West'), (2, 3), (8, 3))
two('08-broken-robots.ron', '08 Broken robots',
    'A # is a broken robot: no one walks through it and belts stop before it.',
    ['....#.......', '.##.#.####..', '.#..#....#..', '.#.###.#.#..', '.#.....#....'], ((0, 0), 'South'), ((11, 0), 'West'), (8, 2), (2, 2))
two('09-swap-puzzle.ron', '09 Swap puzzle',
    'Each player may exchange two tiles twice. A conveyor moved by an exchange turns a quarter counter-clockwise, robots travel with their tiles, and no exchange may cut a robot off from its home or make belts run in a loop.',
    ['.?...#....', '.....#..?.', '>>>>.#....', '.....#..v.', '.....#..v.'], ((0, 0), 'East'), ((9, 0), 'West'), (2, 4), (7, 1), swaps=2)
two('11-candidate-homes.ron', '11 Candidate homes',
    "A robot's letter on several tiles marks candidate homes: each game draws one of them from its seed, and the others are plain tiles. Start a new game and the homes move.",
    ['...........', '.?.......?.', '...........', '....#.?....', '...........'],
    ((0, 0), 'South'), ((10, 0), 'West'), [(3, 5), (8, 6), (5, 8)], [(2, 6), (6, 8), (9, 4)])
two('12-hidden-homes.ron', '12 Hidden homes',
    'Nobody sees the homes: each game draws each robot\'s home from eight tiles it does not show, so as far as anyone can tell it could be on any open tile. Stand on a ? tile and your robot learns which way its home lies, in its own frame; every hint is public. The first robot to step onto its own home wins. Press H to shade the tiles your own robots\' homes can still be on, worked out from the hints alone.',
    ['...........', '.?.......?.', '...........', '....#.?....', '...........'],
    ((0, 0), 'South'), ((10, 0), 'West'),
    [(3, 5), (8, 6), (5, 8), (5, 9), (7, 5), (4, 9), (7, 6), (7, 9)],
    [(2, 6), (6, 8), (9, 4), (10, 6), (8, 5), (3, 9), (4, 8), (6, 5)],
    homes='Hidden', c_at=(10, 8), d_at=(0, 8))
two('13-fog-and-belts.ron', '13 Fog and belts',
    'Hidden homes among belts. A ride clears a robot\'s hints, but not what everyone learnt from them: the homes stay where the hints pointed. Press H to shade the tiles your own robots\' homes can still be on, worked out from the hints alone.',
    ['.............', '.?...>>>v..?.', '........v....', '..#.....v.?..', '...?....>>...'],
    ((0, 0), 'South'), ((12, 0), 'West'), [(3, 6), (10, 7), (6, 9), (11, 5)], [(1, 9), (7, 6), (5, 5), (12, 8)],
    homes='Hidden')
two('14-scattered-hints.ron', '14 Scattered hints',
    'Hidden homes on open ground, hints scattered and a few broken robots. Two hints from different tiles cross: where their directions meet, the home must be. Press H to shade the tiles your own robots\' homes can still be on, worked out from the hints alone.',
    ['.............', '.?....#....?.', '....?........', '..#.....#.?..', '.....?.......'],
    ((0, 0), 'South'), ((12, 0), 'West'), [(3, 6), (10, 7), (6, 9), (11, 5)], [(1, 9), (7, 6), (5, 5), (12, 8)],
    homes='Hidden', c_at=(12, 9), d_at=(0, 7))
four('15-four-in-the-fog.ron', '15 Four in the fog',
     'Four players, each with a rule A and a rule B robot, homes hidden. Hints are public: what your rival learns, you learn too. Press H to shade the tiles your own robots\' homes can still be on, worked out from the hints alone.',
     13, [(1, 1, '?'), (4, 3, '?'), (6, 6, '?'), (3, 5, '#'), (5, 2, '>')],
     ((0, 0), 'South'), ((0, 3), 'East'), [(10, 2), (6, 10), (11, 8)], [(8, 4), (4, 9), (10, 11)],
     ahead=[(0, 1), (1, 1), (1, 1)])
