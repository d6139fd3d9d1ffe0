//! A run of an arena on threads of its own, so the window never waits on
//! it: one thread plays (`arena_run::play`, every game a row in SQLite), and
//! the run's own thread reads the standings back from the database as the
//! rows come in, a reading at a time, and hands them to the screen. A run
//! may also only read: the standings of games played earlier.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::ProgressBar;
use tabula_engine::arena::Arena;

use crate::arena_run::report::{Standings, standings};
use crate::arena_run::store::Store;

/// How often the standings are read again while games are played: the
/// screen shows them about twice a second.
pub const REFRESH: Duration = Duration::from_millis(500);
/// A reading waits at least this many times as long as the last one took,
/// so reading a large table never takes more than a part of a core from
/// the play.
const READ_SHARE: u32 = 3;
/// How often a waiting run looks whether the play has ended.
const LOOK: Duration = Duration::from_millis(20);
/// What the run's threads have found so far, for the screen.
#[derive(Clone, Default)]
pub struct News {
    /// The standings as last read from the database.
    pub standings: Option<Arc<Standings>>,
    /// Games those standings were read from.
    pub rated: u64,
    /// Why the last reading of the database failed.
    pub problem: Option<String>,
    /// How the run ended; `None` while it goes on.
    pub end: Option<Ending>,
    /// Games of the arena the database holds after a run that played (or
    /// why they could not be counted): what the screen's list shows.
    pub held: Option<Result<u64, String>>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Games were played: all those left, or fewer when stopped.
    Played { played: u64, seconds: f64, stopped: bool },
    /// The run only read the database.
    Read,
    /// The play failed (a database that could not be written): why.
    Failed(String),
}

/// Where a playing run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Games in the database of all the arena's, played now or before.
    pub done: u64,
    pub total: u64,
    /// Of those, the games the database held when the run started.
    pub resumed: u64,
    /// Games played a second, lately, of the level being played.
    pub per_second: f64,
    /// Time left at that rate; `None` before a game is played.
    pub left: Option<Duration>,
    /// The pairing being played: "a vs b on level".
    pub pairing: String,
}

/// An arena being played or read, on threads of its own. Dropping it stops
/// the play and waits for its threads.
pub struct Run {
    pub arena: Arc<Arena>,
    /// The arena file and its database.
    pub file: PathBuf,
    pub db: PathBuf,
    /// Games are played (or the database is only read).
    pub plays: bool,
    /// Games the database held of the arena when the run started.
    pub resumed: u64,
    pub total: u64,
    bar: ProgressBar,
    stop: Arc<AtomicBool>,
    news: Arc<Mutex<News>>,
    thread: Option<JoinHandle<()>>,
    rate: LastRate,
}

impl Run {
    /// Plays the games of `arena` that `db` does not hold yet, with `jobs`
    /// threads; `held` is how many it holds, as the screen counted them when
    /// it read the database (refusing one of another arena), so the window
    /// does not read it again: the run's own thread opens it and plays.
    pub fn play(file: &Path, arena: Arc<Arena>, db: &Path, jobs: usize, held: u64) -> Run {
        let bar = crate::arena_run::progress_bar(arena.total_games(), false);
        let mut run = Run::new(file, arena, db, true, held, bar);
        let (arena, db, bar, stop, news) =
            (run.arena.clone(), run.db.clone(), run.bar.clone(), run.stop.clone(), run.news.clone());
        run.thread = Some(std::thread::spawn(move || {
            // Opened (or made) before the first reading, which then finds it.
            let mut store = match Store::open(&db, &crate::arena_run::identity(&arena), &arena.agents) {
                Ok(store) => store,
                Err(e) => return end(&news, Ending::Failed(format!("{e:#}")), None),
            };
            let (ending, held) = std::thread::scope(|scope| {
                let (arena, store, bar, stop) = (&arena, &mut store, &bar, &stop);
                let player = scope.spawn(move || {
                    crate::arena_run::play(arena, &arena.parts(), store, jobs, bar, Some(stop))
                });
                let mut reader = Reader::new(arena, &db);
                while !player.is_finished() {
                    let took = reader.read(&news);
                    let wait = REFRESH.max(took * READ_SHARE);
                    let since = Instant::now();
                    while since.elapsed() < wait && !player.is_finished() {
                        std::thread::sleep(LOOK);
                    }
                }
                let ended = match player.join() {
                    Ok(Ok(p)) => {
                        // Every game played is written: no need to count them.
                        let held = p.resumed + p.played;
                        let stopped = held < arena.total_games();
                        (Ending::Played { played: p.played, seconds: p.seconds, stopped }, Some(held))
                    }
                    Ok(Err(e)) => (Ending::Failed(format!("{e:#}")), None),
                    Err(_) => (Ending::Failed("the play stopped on a panic".into()), None),
                };
                // The last reading holds every game played.
                reader.read(&news);
                ended
            });
            // A failed run wrote some of what it played: counted here, off
            // the window's thread.
            let held = held.map_or_else(|| super::files::held(&arena, &db), Ok);
            end(&news, ending, Some(held.map_err(|e| format!("{e:#}"))));
        }));
        run
    }

    /// Reads the standings of the games `db` holds, playing none.
    pub fn read(file: &Path, arena: Arc<Arena>, db: &Path, held: u64) -> Run {
        let bar = crate::arena_run::progress_bar(arena.total_games(), false);
        bar.set_position(held);
        let mut run = Run::new(file, arena, db, false, held, bar);
        let (arena, db, news) = (run.arena.clone(), run.db.clone(), run.news.clone());
        run.thread = Some(std::thread::spawn(move || {
            Reader::new(&arena, &db).read(&news);
            end(&news, Ending::Read, None);
        }));
        run
    }

    fn new(file: &Path, arena: Arc<Arena>, db: &Path, plays: bool, resumed: u64, bar: ProgressBar) -> Run {
        Run {
            total: arena.total_games(),
            arena,
            file: file.to_owned(),
            db: db.to_owned(),
            plays,
            resumed,
            bar,
            stop: Arc::default(),
            news: Arc::default(),
            thread: None,
            rate: LastRate::default(),
        }
    }

    /// Asks the play to stop after the games being played; they and every
    /// game before them stay in the database.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Asked to stop and not ended yet.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed) && !self.is_finished()
    }

    /// Its threads have ended (with its last news given).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Its news says how it ended.
    pub fn ended(&self) -> bool {
        self.news.lock().unwrap_or_else(PoisonError::into_inner).end.is_some()
    }

    pub fn news(&self) -> News {
        self.news.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Where the play stands: from the progress bar, which `arena_run::play`
    /// counts on (the games already held counted at its start) and whose
    /// rate it starts again with each level, as the terminal shows it.
    pub fn progress(&self) -> Progress {
        let done = self.bar.position().max(self.resumed);
        progress(done, self.total, self.resumed, self.rate.reading(self.bar.per_sec()), self.bar.message())
    }
}

/// The last rate measured: the bar measures again from nothing at each
/// level, and the screen keeps showing the rate and the time left across
/// that moment rather than "0 games/s".
#[derive(Default)]
struct LastRate(AtomicU64);

impl LastRate {
    /// `now` when it is a rate, else the last one that was.
    fn reading(&self, now: f64) -> f64 {
        if now.is_finite() && now > 0.0 {
            self.0.store(now.to_bits(), Ordering::Relaxed);
            now
        } else {
            f64::from_bits(self.0.load(Ordering::Relaxed))
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        self.stop();
        if let Some(thread) = self.thread.take() {
            // A panic was said in the news already.
            let _ = thread.join();
        }
    }
}

/// Where a run stands with `done` of `total` games in the database,
/// `resumed` of them held before it started, playing `per_second` games a
/// second lately; what is left at that rate.
pub fn progress(done: u64, total: u64, resumed: u64, per_second: f64, pairing: String) -> Progress {
    let per_second = if per_second.is_finite() { per_second.max(0.0) } else { 0.0 };
    let left =
        (per_second > 0.0).then(|| Duration::from_secs_f64(total.saturating_sub(done) as f64 / per_second));
    Progress { done, total, resumed, per_second, left, pairing }
}

/// The standings read from a database while a run may write it.
struct Reader<'a> {
    arena: &'a Arena,
    db: &'a Path,
    identity: String,
    store: Option<Store>,
}

impl<'a> Reader<'a> {
    fn new(arena: &'a Arena, db: &'a Path) -> Reader<'a> {
        Reader { arena, db, identity: crate::arena_run::identity(arena), store: None }
    }

    /// Reads the standings and hands them on (or why they could not be
    /// read); how long it took.
    fn read(&mut self, news: &Mutex<News>) -> Duration {
        let start = Instant::now();
        // Rated: the games the standings count (not those past a lowered `games`).
        let read = self.outcomes().map(|rows| standings(self.arena, &rows)).map(|s| (s.rated(), s));
        {
            let mut news = news.lock().unwrap_or_else(PoisonError::into_inner);
            match read {
                Ok((rated, standings)) => {
                    news.standings = Some(Arc::new(standings));
                    news.rated = rated;
                    news.problem = None;
                }
                Err(e) => news.problem = Some(format!("{e:#}")),
            }
        }
        crate::app::frames::wake_for_one_frame();
        start.elapsed()
    }

    fn outcomes(&mut self) -> anyhow::Result<Vec<crate::arena_run::store::Outcome>> {
        if self.store.is_none() {
            self.store = Some(Store::open_read_only(self.db, &self.identity, &self.arena.agents)?);
        }
        self.store.as_ref().expect("opened above").outcomes()
    }
}

/// The run has ended, with `held` games of the arena in its database when
/// it played: said in its news, and the window woken to show it.
fn end(news: &Mutex<News>, ending: Ending, held: Option<Result<u64, String>>) {
    let mut news = news.lock().unwrap_or_else(PoisonError::into_inner);
    news.end = Some(ending);
    news.held = held;
    drop(news);
    crate::app::frames::wake_for_one_frame();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_left_is_at_the_rate_of_the_latest_games() {
        let p = progress(150, 350, 50, 50.0, "a vs b on x".into());
        assert_eq!(p.per_second, 50.0);
        assert_eq!(p.left, Some(Duration::from_secs(4)), "200 games left at 50 a second");
        let resumed = progress(150, 350, 150, 0.0, String::new());
        assert_eq!((resumed.per_second, resumed.left), (0.0, None), "games held before are no rate");
        let at_once = progress(0, 350, 0, f64::NAN, String::new());
        assert_eq!((at_once.per_second, at_once.left), (0.0, None), "no rate measured yet");
    }

    #[test]
    fn a_new_level_keeps_the_last_rate_until_it_has_one_of_its_own() {
        let rate = LastRate::default();
        assert_eq!(rate.reading(f64::NAN), 0.0, "nothing measured yet");
        assert_eq!(rate.reading(40.0), 40.0);
        assert_eq!(rate.reading(0.0), 40.0, "the bar started again at a new level");
        assert_eq!(rate.reading(f64::INFINITY), 40.0);
        assert_eq!(rate.reading(25.0), 25.0);
    }
}
