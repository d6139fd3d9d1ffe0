#!/usr/bin/env python3
# Builds two-player Robot board levels with 180-degree symmetry: player 1's
# robots A (rule A) and B (rule B) and their homes in the top half, player 2's
# C and D where a half turn of the board puts them.
import sys
FLIP = {'^': 'v', 'v': '^', '>': '<', '<': '>'}
FACE = {'North': 'South', 'South': 'North', 'East': 'West', 'West': 'East'}
def level(path, name, desc, top, a, b, ha, hb, swaps=0, cap=None):
    w, h2 = len(top[0]), len(top)
    h = 2 * h2
    grid = [list(r) for r in top] + [[None] * w for _ in range(h2)]
    for y in range(h2):
        for x in range(w):
            c = top[y][x]
            grid[h - 1 - y][w - 1 - x] = FLIP.get(c, c)
    rot = lambda p: (w - 1 - p[0], h - 1 - p[1])
    for (hx, hy), ch in [(ha, 'a'), (hb, 'b'), (rot(ha), 'c'), (rot(hb), 'd')]:
        assert grid[hy][hx] == '.', (name, ch, hx, hy)
        grid[hy][hx] = ch
    robots = [('A', a[0], a[1], 'A', 1), ('B', b[0], b[1], 'B', 1),
              ('C', rot(a[0]), FACE[a[1]], 'A', 2), ('D', rot(b[0]), FACE[b[1]], 'B', 2)]
    out = ['Robots(', f'    name: "{name}",', f'    description: "{desc}",', '    board: [']
    out += [f'        "{"".join(r)}",' for r in grid]
    out += ['    ],', '    robots: [']
    out += [f"        (id: '{i}', at: ({p[0]}, {p[1]}), facing: {f}, rule: {r}, player: {pl})," for i, p, f, r, pl in robots]
    out += ['    ],']
    if swaps: out.append(f'    swaps: {swaps},')
    if cap: out.append(f'    move_cap: {cap},')
    out.append(')')
    open(path, 'w').write('\n'.join(out) + '\n')

import os
L = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'levels', 'robots') + '/'
level(L + '01-first-steps.ron', '01 First steps',
      'Walk a robot to its home: the tile with its letter in lower case. Each player has a rule A robot (A, C) and a rule B robot (B, D); the first robot home wins.',
      ['........', '..?.....', '........'], ((0, 2), 'East'), ((7, 0), 'South'), (5, 2), (2, 0))
level(L + '02-rule-a-and-rule-b.ron', '02 Rule A and rule B',
      'A and C step one tile any way. B and D walk up to three tiles straight ahead, or turn a quarter, half or three quarters counter-clockwise. Which of your two robots is nearer home?',
      ['..........', '..........', '..........'], ((1, 1), 'North'), ((8, 2), 'West'), (8, 0), (1, 2))
level(L + '03-belts.ron', '03 Belts',
      'Step onto a conveyor and it carries you, tile by tile, to the first tile that is not a conveyor. A walk that meets a free conveyor ends there.',
      ['..?........', '.>>>>>>>...', '...........', '...?.......'], ((0, 0), 'East'), ((0, 3), 'North'), (9, 0), (10, 3))
level(L + '04-corners.ron', '04 Corners',
      'Where a belt turns, the robot on it turns by the same angle: watch which way B and D face after a ride.',
      ['..?.........', '.>>>>v......', '.....v......', '.....>>>v...', '........v...'], ((0, 0), 'East'), ((0, 2), 'North'), (11, 0), (9, 4))
level(L + '06-merging-belts.ron', '06 Merging belts',
      'Two belts feed one tile. When two robots would enter the same tile at once, neither moves: walk off and find another way.',
      ['.?.......?.', '.>>>>.<<<<.', '.....v.....', '...........'], ((0, 0), 'East'), ((10, 0), 'West'), (4, 3), (6, 3))
level(L + '07-hints.ron', '07 Hint tiles',
      'Stand on a ? tile and your robot learns where its home lies, in its own frame: ahead, ahead right, right, behind right, behind, behind left, left or ahead left. A belt ride makes it forget.',
      ['...........', '.?.......?.', '...........', '.....?.....'], ((0, 0), 'South'), ((10, 0), 'West'), (2, 3), (8, 3))
level(L + '08-broken-robots.ron', '08 Broken robots',
      'A # is a broken robot: no one walks through it and belts stop before it.',
      ['....#.......', '.##.#.####..', '.#..#....#..', '.#.###.#.#..', '.#.....#....'], ((0, 0), 'South'), ((11, 0), 'West'), (8, 2), (2, 2))
level(L + '09-swap-puzzle.ron', '09 Swap puzzle',
      'Each player may exchange two tiles twice. A conveyor moved by an exchange turns a quarter counter-clockwise, robots travel with their tiles, and no exchange may cut a robot off from its home or make belts run in a loop.',
      ['.?...#....', '.....#..?.', '>>>>.#....', '.....#..v.', '.....#..v.'], ((0, 0), 'East'), ((9, 0), 'West'), (2, 4), (7, 1), swaps=2)
