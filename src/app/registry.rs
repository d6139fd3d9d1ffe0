//! How a game joins the window: its folder's plugin calls [`register`]
//! once, and the generic session, agents, panels, replays and menu then
//! serve it.

use bevy::prelude::*;
use tabula_engine::games;

use super::game::{GameCard, WindowCatalog, WindowGame};
use super::session::{self, WindowEntry, WindowGames};

/// Makes `G` playable in the window: the engine knows it, the menu lists
/// it with its picture, the editor edits its levels, sessions, agents,
/// panels and replays serve it.
pub fn register<G: WindowGame>(app: &mut App) {
    games::register::<G>();
    app.init_resource::<WindowGames>();
    let mut list = app.world_mut().resource_mut::<WindowGames>();
    if list.find(G::NAME).is_some() {
        return;
    }
    list.0.push(WindowEntry {
        name: G::NAME,
        begin: session::begin_game::<G>,
        begin_online: super::online::begin::<G>,
    });
    app.world_mut().get_resource_or_init::<WindowCatalog>().0.push(GameCard::of::<G>());
    app.add_plugins((
        session::game_plugin::<G>,
        super::online::game_plugin::<G>,
        super::hud::game_plugin::<G>,
    ));
}
