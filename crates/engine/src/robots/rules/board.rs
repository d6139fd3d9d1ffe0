//! The board's tiles alone, as a level writes them and as the static
//! checks read them: where conveyors lead, what a robot can reach, belt
//! loops; and reading a level's rows.

use super::*;

pub(super) fn offset(p: Pos, d: Dir) -> (i32, i32) {
    let (dx, dy) = d.delta();
    (p.0 as i32 + dx, p.1 as i32 + dy)
}

/// The tile layout alone, for the static checks on a board (the level's, or
/// one an exchange would make).
pub(super) struct Layout<'a> {
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) tiles: &'a [Tile],
}

impl Layout<'_> {
    pub(super) fn index(&self, p: Pos) -> usize {
        p.1 as usize * self.width as usize + p.0 as usize
    }

    pub(super) fn at(&self, p: Pos) -> Tile {
        self.tiles[self.index(p)]
    }

    pub(super) fn neighbour(&self, p: Pos, d: Dir) -> Option<Pos> {
        let (x, y) = offset(p, d);
        (x >= 0 && y >= 0 && x < self.width as i32 && y < self.height as i32).then_some((x as u16, y as u16))
    }

    /// Where a belt entered at conveyor `p` ends: the first non-conveyor tile
    /// it reaches, or its last conveyor before the edge or a broken robot.
    /// The board has no loops when this is asked.
    pub(super) fn belt_end(&self, mut p: Pos) -> Pos {
        while let Tile::Conveyor(d) = self.at(p) {
            match self.neighbour(p, d) {
                Some(next) if self.at(next) != Tile::Broken => p = next,
                _ => return p,
            }
            if !matches!(self.at(p), Tile::Conveyor(_)) {
                return p;
            }
        }
        p
    }

    /// Every tile whose content decides where a belt entered at `p` ends:
    /// `p`, each conveyor it runs over, the tile it ends on, and the broken
    /// robot that stops it. These are exactly the tiles [`Self::belt_end`]
    /// reads (the board's edge is no tile: a conveyor's direction alone
    /// says it points off the board).
    pub(super) fn belt_tiles(&self, mut p: Pos, touched: &mut Vec<usize>) {
        touched.push(self.index(p));
        while let Tile::Conveyor(d) = self.at(p) {
            let Some(next) = self.neighbour(p, d) else { return };
            touched.push(self.index(next));
            if self.at(next) == Tile::Broken {
                return;
            }
            p = next;
        }
    }

    /// One move of the static reachability from `p` in `dir`: the tile
    /// stepped onto and where the robot then stands (a belt's end).
    pub(super) fn landing(&self, p: Pos, dir: Dir) -> Option<(Pos, Pos)> {
        let n = self.neighbour(p, dir)?;
        match self.at(n) {
            Tile::Broken => None,
            Tile::Conveyor(_) => Some((n, self.belt_end(n))),
            _ => Some((n, n)),
        }
    }

    /// docs/rules/robot-board.md, "Reachability": ignoring robots and rule
    /// sets, can a robot at `from` get to `home`?
    pub(super) fn reaches(&self, from: Pos, home: Pos) -> bool {
        self.flood(from, Some(home)).0
    }

    /// Every tile a robot at `from` can come to stand on, ignoring robots
    /// and rule sets (the reachability of [`Self::reaches`]), by index.
    pub(super) fn reachable_from(&self, from: Pos) -> Vec<bool> {
        self.flood(from, None).1
    }

    /// The static reachability from `from`, depth first: whether it gets to
    /// `home` (where it stops), and the tiles reached so far, by index.
    /// Toward a home the directions toward it are pushed last so they are
    /// tried first: on open ground the way is found at once.
    pub(super) fn flood(&self, from: Pos, home: Option<Pos>) -> (bool, Vec<bool>) {
        let start = self.belt_end(from);
        let mut seen = vec![false; self.tiles.len()];
        let mut stack = vec![start];
        seen[self.index(start)] = true;
        while let Some(p) = stack.pop() {
            let mut order = Dir::ALL;
            if let Some(home) = home {
                if p == home {
                    return (true, seen);
                }
                let (dx, dy) = (home.0 as i32 - p.0 as i32, home.1 as i32 - p.1 as i32);
                order.sort_by_key(|d| {
                    let (ex, ey) = d.delta();
                    ex * dx.signum() + ey * dy.signum()
                });
            }
            for (_, land) in order.into_iter().filter_map(|d| self.landing(p, d)) {
                let i = self.index(land);
                if !seen[i] {
                    seen[i] = true;
                    stack.push(land);
                }
            }
        }
        (false, seen)
    }

    /// A way from `from` to `home`, as every tile whose content the way
    /// depends on: each tile stepped onto, and for each belt ride the tiles
    /// of [`Self::belt_tiles`]. [`Self::landing`] reads no other tile, so on
    /// a board that differs from this one only outside these tiles every
    /// landing of the way is the same and the way still leads home: an
    /// exchange that touches none of them cannot strand the robot.
    pub(super) fn route(&self, from: Pos, home: Pos) -> Option<Vec<usize>> {
        let start = self.belt_end(from);
        // For each tile reached: the tile it was reached from and the
        // neighbour stepped onto.
        let mut came: Vec<Option<(Pos, Pos)>> = vec![None; self.tiles.len()];
        let mut seen = vec![false; self.tiles.len()];
        let mut queue = VecDeque::from([start]);
        seen[self.index(start)] = true;
        while let Some(p) = queue.pop_front() {
            if p == home {
                let mut touched = Vec::new();
                let mut at = p;
                while let Some((before, stepped)) = came[self.index(at)] {
                    self.belt_tiles(stepped, &mut touched);
                    at = before;
                }
                self.belt_tiles(from, &mut touched);
                return Some(touched);
            }
            for (n, land) in Dir::ALL.into_iter().filter_map(|d| self.landing(p, d)) {
                let i = self.index(land);
                if !seen[i] {
                    seen[i] = true;
                    came[i] = Some((p, n));
                    queue.push_back(land);
                }
            }
        }
        None
    }

    /// A conveyor loop through one of `starts`, as the tiles of the loop.
    pub(super) fn loop_through(&self, starts: impl Iterator<Item = Pos>) -> Option<Vec<Pos>> {
        for start in starts {
            let mut path = vec![start];
            let mut p = start;
            while let Tile::Conveyor(d) = self.at(p) {
                let Some(next) = self.neighbour(p, d) else { break };
                if let Some(at) = path.iter().position(|&q| q == next) {
                    return Some(path[at..].to_vec());
                }
                if !matches!(self.at(next), Tile::Conveyor(_)) || path.len() > self.tiles.len() {
                    break;
                }
                path.push(next);
                p = next;
            }
        }
        None
    }
}

pub(super) fn describe(tiles: &[Pos], height: u16) -> String {
    tiles.iter().map(|&p| spot(p, height)).collect::<Vec<_>>().join(", ")
}

/// A tile as the board's edges name it, then as the level file writes it
/// (`at: (x, y)`): "F4 (5, 2)". The window labels the edges; a level file
/// is written in x and y.
pub(super) fn spot(p: Pos, height: u16) -> String {
    format!("{} ({}, {})", tile_name(p, height), p.0, p.1)
}

/// The level's board as tiles with every home a plain tile, as the
/// reachability rule reads it.
pub(super) fn plain_board(level: &RobotsLevel) -> Option<(u16, u16, Vec<Tile>)> {
    let (width, height, mut tiles, homes) = parse_board(level).ok()?;
    for &(_, p) in &homes {
        tiles[p.1 as usize * width as usize + p.0 as usize] = Tile::Normal;
    }
    Some((width, height, tiles))
}

/// For each tile of `from`, every tile a robot there could come to stand
/// on, by the level's reachability rule (robots and rule sets aside): what
/// the level editor shades for robots that cannot reach their homes. The
/// board is read once for them all. `None` for a tile off the board, and
/// for every tile when the board cannot be read.
pub fn reachable_tiles(level: &RobotsLevel, from: &[Pos]) -> Vec<Option<Vec<Pos>>> {
    let Some((width, height, tiles)) = plain_board(level) else { return vec![None; from.len()] };
    let layout = Layout { width, height, tiles: &tiles };
    from.iter()
        .map(|&start| {
            if start.0 >= width || start.1 >= height {
                return None;
            }
            let reached = layout.reachable_from(start);
            Some(
                (0..tiles.len())
                    .filter(|&i| reached[i])
                    .map(|i| ((i % width as usize) as u16, (i / width as usize) as u16))
                    .collect(),
            )
        })
        .collect()
}

/// A loop of conveyors on the level's board, as its tiles.
pub fn belt_loop(level: &RobotsLevel) -> Option<Vec<Pos>> {
    let (width, height, tiles) = plain_board(level)?;
    let layout = Layout { width, height, tiles: &tiles };
    let conveyors = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x, y)))
        .filter(|&p| matches!(layout.at(p), Tile::Conveyor(_)));
    layout.loop_through(conveyors)
}

/// Reads the board's rows into tiles; homes name robot ids.
pub(super) fn parse_board(
    level: &RobotsLevel,
) -> Result<(u16, u16, Vec<Tile>, Vec<(char, Pos)>), RuleViolation> {
    let height = level.board.len();
    let width = level.board.first().map_or(0, |r| r.chars().count());
    if height == 0 || width == 0 || height > MAX_SIDE || width > MAX_SIDE {
        return Err(violation(
            "board-size",
            format!("the board must be 1 to {MAX_SIDE} tiles each way, this one is {width} x {height}"),
        ));
    }
    let mut tiles = Vec::with_capacity(width * height);
    let mut homes = Vec::new();
    for (y, row) in level.board.iter().enumerate() {
        let n = row.chars().count();
        if n != width {
            return Err(violation(
                "board-shape",
                format!("row {y} has {n} tiles, but row 0 has {width}: every row needs the same width"),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            let p = (x as u16, y as u16);
            tiles.push(match c {
                '.' => Tile::Normal,
                '?' => Tile::Hint,
                '#' => Tile::Broken,
                '^' => Tile::Conveyor(Dir::North),
                '>' => Tile::Conveyor(Dir::East),
                'v' => Tile::Conveyor(Dir::South),
                '<' => Tile::Conveyor(Dir::West),
                c if let Some(id) = robot_of_home(c) => {
                    homes.push((id, p));
                    Tile::Home(u16::MAX)
                }
                other => {
                    return Err(violation(
                        "board-legend",
                        format!(
                            "unknown tile {other:?} at ({x}, {y}): the legend is . ? # ^ > v < and lowercase homes"
                        ),
                    ));
                }
            });
        }
    }
    Ok((width as u16, height as u16, tiles, homes))
}

/// A tile as on a chess board: its column as letters from the left (A to
/// Z, then AA), its row as a number from the bottom.
pub fn tile_name(p: Pos, height: u16) -> String {
    format!("{}{}", column_name(p.0), height - p.1)
}

/// Column `x`'s letters: A to Z, then AA, AB, and so on.
pub fn column_name(x: u16) -> String {
    let mut column = String::new();
    let mut x = x as u32 + 1;
    while x > 0 {
        x -= 1;
        column.insert(0, char::from(b'A' + (x % 26) as u8));
        x /= 26;
    }
    column
}
