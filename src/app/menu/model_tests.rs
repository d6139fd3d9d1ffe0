//! The menu's choices, tested without a window.

use super::*;
use tabula_engine::mancala::Mancala;
use tabula_engine::nim::Nim;
use tabula_engine::robots::Robots;
use tabula_engine::russian_bank::RussianBank;

fn cards(n: usize) -> Vec<GameCard> {
    let all = [
        GameCard::of::<Nim>(),
        GameCard::of::<Mancala>(),
        GameCard::of::<Robots>(),
        GameCard::of::<RussianBank>(),
    ];
    all[..n].to_vec()
}

fn menu() -> Menu {
    let mut menu = Menu::new(&cards(2));
    read_levels(&mut menu);
    menu
}

/// The chosen game's levels read at once (the window reads them through
/// the asset server; tests/app/levels.rs checks that).
fn read_levels(menu: &mut Menu) {
    let dir = levels_root().join(menu.current().folder);
    let files = crate::app::levels::library::ron_files_in(&dir);
    menu.set_levels(
        files
            .into_iter()
            .map(|path| LevelEntry {
                level: level::load(&path).map_err(|e| e.to_string()),
                path,
                mine: false,
            })
            .collect(),
    );
}

#[test]
fn strength_is_written_only_when_it_differs() {
    let mut menu = menu();
    assert_eq!(menu.current().title, "Nim");
    assert_eq!(menu.seats.len(), 2);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("casual", None)), "Casual by default");
    // Casual takes no strength: it is one.
    menu.seats[1].strength = 0.3;
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("casual", None)));
    let optimal = menu.agents.iter().position(|a| a.name == "optimal");
    menu.set_agent(1, optimal);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("optimal", None)));
    menu.seats[1].strength = 0.3;
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("optimal", Some("0.3"))));
    menu.cycle_seat(1);
    assert_eq!(menu.controller(1), Controller::Human);
    menu.cycle_seat(1);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("random", None)));
    menu.cycle_seat(5);
    assert_eq!(menu.seats.len(), 2, "no seat 6 at a two-player game");
}

#[test]
fn games_the_window_cannot_play_say_why() {
    // The engine knows the Robot board; a menu of a window without its
    // board says it is for the command line only.
    let mut menu = menu();
    let titles: Vec<&str> = menu.games.iter().map(|g| g.title).collect();
    assert_eq!(titles, ["Nim", "Mancala / Kalah", "Robot board", "Russian Bank"]);
    menu.switch_game(2);
    read_levels(&mut menu);
    assert!(menu.levels.len() >= 10, "the Robot board's levels are listed");
    let err = menu.plan(&Settings::default()).unwrap_err();
    assert!(err.contains("command line only"), "{err}");
    assert!(menu.seats.is_empty());
    menu.switch_game(3);
    assert_eq!(menu.current().title, "Russian Bank");
    assert!(menu.plan(&Settings::default()).unwrap_err().contains("command line only"));
}

#[test]
fn the_robot_board_offers_a_seat_for_each_player_of_the_level() {
    let mut menu = Menu::new(&cards(3));
    menu.switch_game(2);
    read_levels(&mut menu);
    assert_eq!(menu.current().title, "Robot board");
    let race = menu.levels.iter().position(|l| l.path.ends_with("10-four-player-race.ron")).unwrap();
    menu.select(race);
    assert_eq!(menu.seats.len(), 4);
    assert_eq!(menu.controller(0), Controller::Human);
    assert_eq!(menu.controller(3), Controller::Agent(AgentSpec::new("casual", None)));
    let plan = menu.plan(&Settings::default()).unwrap();
    assert_eq!(plan.seats.len(), 4);
    assert_eq!(plan.seats[2].name, "Ada");
}

#[test]
fn switching_games_resets_seats_to_the_default_opponent_at_its_default_strength() {
    let mut menu = menu();
    menu.switch_game(1);
    read_levels(&mut menu);
    assert_eq!(menu.current().title, "Mancala / Kalah");
    assert!(menu.levels.len() >= 5);
    assert_eq!(menu.controller(0), Controller::Human);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("casual", None)));
    let minimax = menu.agents.iter().position(|a| a.name == "minimax");
    menu.set_agent(1, minimax);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("minimax", None)));
    menu.seats[1].strength = 4.0;
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("minimax", Some("4"))));
}

#[test]
fn levels_are_listed_by_group_with_the_specification_tests_last() {
    let mut menu = Menu::new(&cards(4));
    let bank = menu.games.iter().position(|g| g.title == "Russian Bank").unwrap();
    menu.switch_game(bank);
    read_levels(&mut menu);
    let groups: Vec<LevelGroup> = menu.levels.iter().map(|l| l.level.as_ref().unwrap().group()).collect();
    assert!(groups.is_sorted(), "{groups:?}");
    assert_eq!(groups.first(), Some(&LevelGroup::Lesson));
    let tests: Vec<String> = menu
        .levels
        .iter()
        .filter(|l| l.level.as_ref().unwrap().group() == LevelGroup::Specification)
        .map(|l| l.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(tests.len(), 5, "seed 004's four positions and the written-out deal: {tests:?}");
    assert!(tests.iter().filter(|t| t.starts_with("seed-004")).count() == 4);
    // The shown-home races are lessons; the hidden-home levels are games.
    menu.switch_game(menu.games.iter().position(|g| g.title == "Robot board").unwrap());
    read_levels(&mut menu);
    for entry in &menu.levels {
        let level = entry.level.as_ref().unwrap();
        let hidden = level.get::<tabula_engine::robots::Robots>().unwrap().homes
            == tabula_engine::robots::Homes::Hidden;
        let large = entry.path.to_string_lossy().contains("large-");
        let expected = match (large, hidden) {
            (true, _) => LevelGroup::Large,
            (false, true) => LevelGroup::Game,
            _ => LevelGroup::Lesson,
        };
        assert_eq!(level.group(), expected, "{}", entry.path.display());
    }
}

#[test]
fn every_game_has_a_line_and_a_picture() {
    let menu = Menu::new(&cards(4));
    for game in &menu.games {
        assert!(game.about.len() > 20, "{}", game.title);
        assert!(game.picture.is_some(), "{}: its picture's level is read", game.title);
    }
}

#[test]
fn a_russian_bank_lesson_seats_an_opponent_that_slips() {
    let mut menu = Menu::new(&cards(4));
    menu.switch_game(menu.games.iter().position(|g| g.title == "Russian Bank").unwrap());
    read_levels(&mut menu);
    let lesson = |l: &LevelEntry| l.level.as_ref().unwrap().group() == LevelGroup::Lesson;
    assert!(lesson(&menu.levels[menu.selected]), "the first level listed is a lesson");
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("greedy", Some("0.3"))));
    assert!(menu.lesson_seat(1) && !menu.lesson_seat(0), "the menu says the lesson seated it");
    let game = menu.levels.iter().position(|l| !lesson(l)).unwrap();
    menu.select(game);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("casual", None)));
    assert!(!menu.lesson_seat(1));
    // A seat the player chose stays as chosen.
    let lookahead = menu.agents.iter().position(|a| a.name == "lookahead");
    menu.set_agent(1, lookahead);
    menu.seats[1].strength = 16.0;
    menu.select(0);
    assert_eq!(menu.controller(1), Controller::Agent(AgentSpec::new("lookahead", Some("16"))));
    assert!(!menu.lesson_seat(1), "the player's own choice is not the lesson's");
}

#[test]
fn online_seats_are_people_but_for_the_agents() {
    let mut menu = menu();
    assert_eq!(menu.online_seats(), ["person", "casual"]);
    let optimal = menu.agents.iter().position(|a| a.name == "optimal");
    menu.set_agent(1, optimal);
    menu.seats[1].strength = 0.3;
    assert_eq!(menu.online_seats(), ["person", "optimal:0.3"]);
    menu.cycle_seat(0);
    menu.cycle_seat(1);
    let first = menu.controller(0).label();
    assert_ne!(first, "human", "seat 1 cycled to an agent");
    assert_eq!(
        menu.online_seats(),
        [first, "person".to_owned()],
        "an agent plays on the server; Human is a person"
    );
}

#[test]
fn the_players_own_levels_come_after_every_shipped_group_and_before_broken_files() {
    let mut menu = menu();
    let mut levels = menu.levels.clone();
    let shipped = levels.len();
    let own = LevelEntry { mine: true, ..levels[0].clone() };
    let broken = LevelEntry { level: Err("line 1".into()), ..levels[1].clone() };
    levels.insert(0, broken);
    levels.insert(1, own);
    menu.set_levels(levels);
    assert!(menu.levels[..shipped].iter().all(|l| !l.mine && l.level.is_ok()));
    assert!(menu.levels[shipped].mine, "the player's own after the shipped groups");
    assert!(menu.levels[shipped + 1].level.is_err(), "files with errors last");
}

#[test]
fn switching_games_says_the_levels_are_being_read_not_that_there_are_none() {
    let mut menu = menu();
    menu.listed = true;
    assert_eq!(menu.empty_list_note(), None, "levels shown");
    menu.switch_game(1);
    assert_eq!(menu.empty_list_note().as_deref(), Some("Reading the levels…"), "not 'No levels in …'");
    menu.listed = true;
    assert!(menu.empty_list_note().unwrap().starts_with("No levels in"), "read, and none there");
}

#[test]
fn a_level_played_from_the_command_line_is_the_menus_choice_afterwards() {
    let mut menu = Menu::new(&cards(4));
    read_levels(&mut menu);
    // As `tabula play` names it: another spelling of the listed file.
    let path = levels_root().join("mancala").join("..").join("mancala").join("kalah-6-5.ron");
    menu.show("mancala", &path);
    assert_eq!(menu.current().folder, "mancala", "its game");
    read_levels(&mut menu);
    let chosen = &menu.levels[menu.selected].path;
    assert_eq!(
        chosen.file_name().unwrap(),
        "kalah-6-5.ron",
        "its level, not the first: {}",
        chosen.display()
    );
    read_levels(&mut menu);
    assert_eq!(menu.levels[menu.selected].path.file_name().unwrap(), "kalah-6-5.ron", "and it stays");
}

/// Back to a game shown before, its level is the one chosen there, not
/// its first lesson (a stranger had to find it again each time).
#[test]
fn a_game_shown_again_comes_back_to_its_level() {
    let mut menu = Menu::new(&cards(4));
    read_levels(&mut menu);
    let traditional = menu.levels.iter().position(|l| l.path.ends_with("traditional-3-4-5.ron")).unwrap();
    menu.select(traditional);
    menu.switch_game(1);
    read_levels(&mut menu);
    assert_eq!(menu.current().folder, "mancala");
    assert_eq!(menu.selected, 0, "a game not shown before starts at its first level");
    menu.switch_game(0);
    read_levels(&mut menu);
    assert!(menu.levels[menu.selected].path.ends_with("traditional-3-4-5.ron"));
}

#[test]
fn a_level_of_the_game_already_shown_is_chosen_at_once() {
    let mut menu = menu();
    let path = levels_root().join("nim").join("marienbad-1-3-5-7.ron");
    menu.show("nim", &path);
    assert_eq!(menu.levels[menu.selected].path.file_name().unwrap(), "marienbad-1-3-5-7.ron");
}

/// Beginner chosen for a game is Beginner in the next: every game has the
/// four difficulties. A seat made a person stays one.
#[test]
fn a_difficulty_chosen_stays_chosen_when_the_game_changes() {
    let mut menu = Menu::new(&cards(4));
    let named = |menu: &Menu, seat: usize| menu.seats[seat].agent.map(|i| menu.agents[i].name);
    let beginner = menu.agents.iter().position(|a| a.name == "beginner");
    menu.set_agent(1, beginner);
    for game in 1..menu.games.len() {
        menu.switch_game(game);
        read_levels(&mut menu);
        let title = &menu.games[game].title;
        assert_eq!(named(&menu, 0), None, "{title}: seat 1 stays a person");
        assert_eq!(named(&menu, 1), Some("beginner"), "{title}");
    }
    // An agent that is not a difficulty gives way to the game's default.
    let lookahead = menu.agents.iter().position(|a| a.name == "lookahead");
    menu.set_agent(1, lookahead);
    menu.switch_game(0);
    assert_eq!(named(&menu, 1), Some("casual"));
}

/// Nim's levels and the Robot board's hidden-home levels can be played on
/// a board dealt anew each game; Kalah's and the Robot board's puzzles
/// cannot. The plan deals only when the game's setting says so.
#[test]
fn a_new_board_each_game_is_offered_where_a_board_can_be_dealt() {
    let mut menu = Menu::new(&cards(3));
    let mut settings = Settings::default();
    for (game, file, dealable) in [
        (0, "traditional-3-4-5.ron", true),
        (1, "kalah-6-4.ron", false),
        (2, "04-corners.ron", false),
        (2, "12-hidden-homes.ron", true),
    ] {
        menu.switch_game(game);
        read_levels(&mut menu);
        let at = menu.levels.iter().position(|l| l.path.ends_with(file)).unwrap();
        menu.select(at);
        assert_eq!(menu.dealable, dealable, "{file}");
        // The picture's board, once each game deals its own.
        let own = menu.levels[at].level.as_ref().unwrap();
        assert_eq!(menu.dealt_example.is_some(), dealable, "{file}");
        assert!(menu.dealt_example.as_ref().is_none_or(|e| e != own), "{file}: the example is dealt anew");
        assert!(!menu.plan(&settings).unwrap().deal, "{file}: off until asked");
        settings.set_deals(menu.current().folder, true);
        assert_eq!(menu.plan(&settings).unwrap().deal, dealable, "{file}");
        settings.set_deals(menu.current().folder, false);
    }
    settings.set_deals("nim", true);
    settings.set_deals("nim", true);
    assert_eq!(settings.dealt, ["nim"], "asked twice, kept once");
    assert!(!settings.deals("robots"), "each game its own");
}
