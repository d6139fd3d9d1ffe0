//! Replays in the window: read into a plan that steps through them, saved
//! from a session, played forward on their own when not paused.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use tabula_engine::replay;

use super::agents::Agents;
use super::{BoardBusy, Controller, RequestMove, SeatSetup, Session, SessionPlan, StatusLine, Watch};
use crate::app::frames::NextFrame;
use crate::app::game::WindowGame;
use crate::app::settings::{Settings, data_dir};

/// A replay's moves, still in the file's form until the game is known.
#[derive(Clone, Debug)]
pub struct ReplayMoves {
    pub text: String,
    pub file: String,
}

/// Reads a replay file into a plan that steps through it.
pub fn plan_from_replay(path: &Path, settings: &Settings) -> Result<SessionPlan, String> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
    let header = replay::parse_header(&text, &file).map_err(|e| e.to_string())?;
    let level = header.level.resolve(path).map_err(|e| e.to_string())?;
    let players = level.game().num_players(&level);
    let seats = (0..players)
        .map(|i| {
            let seat = header.players.get(i);
            SeatSetup {
                name: seat.map_or_else(|| settings.name(i), |s| s.name.clone()),
                controller: seat.map_or(Controller::Human, |s| saved_controller(&s.agent)),
            }
        })
        .collect();
    Ok(SessionPlan {
        level_path: None,
        level,
        seats,
        seed: header.seed,
        replay: Some(ReplayMoves { text, file }),
        deal: false,
    })
}

/// A replay's moves, each checked by the engine from the level's start: a
/// file with a move that breaks a rule is refused whole, naming the file,
/// the move's number and the rule.
pub(super) fn checked_moves<G: WindowGame>(
    moves: &ReplayMoves,
    level: &G::Level,
) -> Result<Vec<G::Move>, String> {
    let replay = replay::parse::<G::Move>(&moves.text, &moves.file).map_err(|e| e.to_string())?;
    replay.play_with::<G>(level, &moves.file, &mut |_| {}).map_err(|e| e.to_string())?;
    Ok(replay.moves)
}

/// Who played a seat of a replay, as saved: a person, or the agent named
/// (shown, never run: a replay takes no new moves).
fn saved_controller(agent: &str) -> Controller {
    match agent.parse() {
        Ok(spec) if agent != "human" => Controller::Agent(spec),
        _ => Controller::Human,
    }
}

pub(super) fn save_replay<G: WindowGame>(session: &Session<G>, dir: &Path) -> std::io::Result<PathBuf> {
    let stem = session
        .level_path
        .as_ref()
        .and_then(|p| p.file_stem())
        .map_or_else(|| G::NAME.to_lowercase(), |s| s.to_string_lossy().into_owned());
    let path = free_path(dir, &stem);
    session.to_replay().save(&path)?;
    Ok(path)
}

/// A new replay's file in `dir`, named by `stem` and the time now. Two
/// saves in one minute: the second is "(2)", and so on.
fn free_path(dir: &Path, stem: &str) -> PathBuf {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let name = replay_name(stem, now);
    (1..)
        .map(|n| match n {
            1 => dir.join(format!("{name}.ron")),
            n => dir.join(format!("{name} ({n}).ron")),
        })
        .find(|p| !p.exists())
        .expect("a free name")
}

/// A game played at a server's table, as the server gave its replay after
/// the end: checked as a replay file opened is (its level, every move by
/// the rules), then kept in `dir` beside the games played here, named by
/// the level's name.
pub fn save_heard_replay<G: WindowGame>(
    session: &mut Session<G>,
    text: &str,
    dir: &Path,
) -> Result<PathBuf, String> {
    let what = "the server's replay";
    let header = replay::parse_header(text, what).map_err(|e| e.to_string())?;
    // Its level within: a server names no file on this machine.
    if !matches!(header.level, replay::LevelSource::Inline(_)) {
        return Err(format!("{what} names a level file instead of holding its level"));
    }
    let file = header.level.resolve(dir).map_err(|e| e.to_string())?;
    let level = file.get::<G>().ok_or("the server's replay is of another game")?;
    checked_moves::<G>(&ReplayMoves { text: text.to_owned(), file: what.to_owned() }, level)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let path = free_path(dir, &stem_of(&session.level_name, G::NAME));
    tabula_engine::level::write_atomically(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    session.saved = Some((session.as_saved(), path.clone()));
    Ok(path)
}

/// A file name's stem for a level known only by its name (a server's
/// table): its letters and digits, lower case, the rest one dash each run
/// ("04 A quick win" is "04-a-quick-win"); the game's name if none is left.
fn stem_of(name: &str, game: &str) -> String {
    let words: Vec<String> =
        name.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase).collect();
    if words.is_empty() { game.to_lowercase() } else { words.join("-") }
}

/// A replay's file name: the level's and the time it was saved, in UTC to
/// the minute ("09-swap-puzzle 2026-11-23 14-05").
pub fn replay_name(stem: &str, unix_seconds: u64) -> String {
    let (days, secs) = (unix_seconds / 86_400, unix_seconds % 86_400);
    let (year, month, day) = civil_date(days as i64);
    format!("{stem} {year:04}-{month:02}-{day:02} {:02}-{:02}", secs / 3600, secs % 3600 / 60)
}

/// The calendar date of a day counted from 1970-01-01 (Howard Hinnant's
/// days-to-civil).
fn civil_date(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Where the window saves replays.
pub fn replays_dir() -> PathBuf {
    data_dir().join("replays")
}

/// The replays in `dir`, the latest saved first (by the file's time, then
/// by name, whose end is the minute it was saved).
pub fn newest_first(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| (std::fs::metadata(&p).and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH), p))
        .collect();
    files.sort_by(|a, b| b.cmp(a));
    files.into_iter().map(|(_, p)| p).collect()
}

/// The folder replays are saved in and listed from; insert it before the
/// plugin to use another (tests do).
#[derive(Resource, Clone, Debug)]
pub struct ReplaysFolder(pub PathBuf);

impl Default for ReplaysFolder {
    fn default() -> ReplaysFolder {
        ReplaysFolder(replays_dir())
    }
}

/// A finished game, saved as a replay unless the settings say not to: the
/// status line says where, after the result.
pub(super) fn save_finished<G: WindowGame>(
    session: &mut Session<G>,
    settings: &Settings,
    folder: &ReplaysFolder,
    status: &mut StatusLine,
) {
    if session.kind.steps_through() || !settings.save_finished_games {
        return;
    }
    match save_replay(session, &folder.0) {
        Ok(path) => {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            status.info(format!("{} · saved as the replay \"{name}\"", status.text));
            session.saved = Some((session.as_saved(), path));
        }
        Err(e) => status.error(format!("{} · cannot save the replay: {e}", status.text)),
    }
}

/// Plays a replay forward on its own when not paused.
pub(super) fn step_replay<G: WindowGame>(
    session: Res<Session<G>>,
    mut agents: ResMut<Agents<G>>,
    mut watch: ResMut<Watch>,
    busy: Res<BoardBusy>,
    settings: Res<Settings>,
    mut requests: MessageWriter<RequestMove<G>>,
    mut next: ResMut<NextFrame>,
) {
    if !session.kind.steps_through() || busy.0 > 0 {
        return;
    }
    let Some(&mv) = session.redo.last() else { return };
    if watch.step {
        watch.step = false;
    } else if watch.paused {
        return;
    } else if agents.cooldown > 0.0 {
        next.ask();
        return;
    }
    agents.cooldown = 1.0 / settings.ai_moves_per_second;
    requests.write(RequestMove { by: session.game.actor(&mv), mv });
}

#[cfg(test)]
mod tests {
    use tabula_engine::Player;
    use tabula_engine::level::LevelFile;
    use tabula_engine::nim::{Ending, Nim, NimLevel, Take};

    use super::*;

    #[test]
    fn replays_are_named_by_level_and_time() {
        assert_eq!(replay_name("09-swap-puzzle", 1_795_961_100), "09-swap-puzzle 2026-11-29 14-05");
        assert_eq!(replay_name("nim", 0), "nim 1970-01-01 00-00");
        // A leap day.
        assert_eq!(replay_name("x", 951_782_400 + 59), "x 2000-02-29 00-00");
    }

    #[test]
    fn a_level_known_by_its_name_gives_a_plain_file_stem() {
        assert_eq!(stem_of("04 A quick win", "RussianBank"), "04-a-quick-win");
        assert_eq!(stem_of("Large: 20 piles", "Nim"), "large-20-piles");
        assert_eq!(stem_of("../../etc", "Nim"), "etc", "no folder is named");
        assert_eq!(stem_of(" ?! ", "Nim"), "nim");
    }

    #[test]
    fn a_replays_seats_keep_their_agents() {
        assert_eq!(saved_controller("human"), Controller::Human);
        assert_eq!(saved_controller("planner").label(), "planner");
        assert_eq!(saved_controller("optimal:0.5").label(), "optimal:0.5");
    }

    fn two_piles() -> (SessionPlan, NimLevel) {
        let level = NimLevel::new("t", &[2, 3], Ending::Normal);
        let seat = |name: &str| SeatSetup { name: name.into(), controller: Controller::Human };
        let plan = SessionPlan {
            level_path: None,
            level: LevelFile::new::<Nim>(level.clone()),
            seats: vec![seat("Ann"), seat("Bob")],
            seed: 1,
            replay: None,
            deal: false,
        };
        (plan, level)
    }

    fn replay_of(moves: &str) -> Option<ReplayMoves> {
        let text = format!("(level: Path(\"unused.ron\"), seed: 1, players: [], moves: [{moves}])");
        Some(ReplayMoves { text, file: "dir/r.ron".into() })
    }

    #[test]
    fn a_replay_opens_only_if_every_move_keeps_the_rules() {
        let (mut plan, level) = two_piles();
        plan.replay = replay_of("(pile: 1, count: 1), (pile: 0, count: 2)");
        let session = Session::<Nim>::new(&plan, level.clone()).unwrap();
        assert_eq!(session.redo, [Take { pile: 0, count: 2 }, Take { pile: 1, count: 1 }]);
        plan.replay = replay_of("(pile: 1, count: 1), (pile: 1, count: 9)");
        let err = Session::<Nim>::new(&plan, level.clone()).err().unwrap();
        assert_eq!(
            err,
            "dir/r.ron: move 2 (take 9 stones from pile 2) was refused: pile 2 has only 2 stone(s), you cannot take 9"
        );
        plan.replay = replay_of("(pile: 1, count: 1), (pile: 1, count");
        let err = Session::<Nim>::new(&plan, level).err().unwrap();
        assert!(err.starts_with("dir/r.ron:1:"), "{err}");
    }

    #[test]
    fn a_history_that_no_longer_applies_ends_where_it_breaks() {
        let (plan, level) = two_piles();
        let mut session = Session::<Nim>::new(&plan, level).unwrap();
        // Written past the requests, as no view should: the second cannot be played.
        session.redo = vec![Take { pile: 0, count: 9 }, Take { pile: 1, count: 1 }];
        assert!(session.go_to(2));
        assert_eq!(session.moves, [Take { pile: 1, count: 1 }]);
        assert_eq!(session.movers, [Player::ONE]);
        assert!(session.redo.is_empty());
        assert_eq!(session.game.piles(), &[2, 2]);
        session.restart();
        assert!(session.moves.is_empty() && !session.kind.steps_through());
        assert_eq!(session.game.piles(), &[2, 3]);
    }
}
