//! What the table tells the panels, said in the session's words
//! (`TableNews`): each seat's state and clock, the link and the invite, a
//! take-back asked, the rematch asked. The panels draw it and never read
//! the table itself.

use bevy::prelude::*;

use super::host::Hosting;
use super::{OnlineTable, clock_text};
use crate::app::session::{Connection, TableLine, TableNews};

/// Each frame the table is there, its news; none once it is left.
pub(super) fn tell_the_panels(
    online: Option<Res<OnlineTable>>,
    hosting: Option<Res<Hosting>>,
    mut news: ResMut<TableNews>,
) {
    let told = online.map_or_else(TableNews::default, |online| news_of(&online, hosting.as_deref()));
    news.set_if_neq(told);
}

fn news_of(online: &OnlineTable, hosting: Option<&Hosting>) -> TableNews {
    let clocks = online.clocks_now();
    let seats = (0..online.seats.len())
        .map(|seat| {
            let clock = clocks.as_ref().and_then(|c| c.get(seat)).map(|&ms| format!(" · {}", clock_text(ms)));
            format!("{}{}", online.seat_state(seat), clock.unwrap_or_default())
        })
        .collect();
    let connection = match &online.trouble {
        None if online.up => Connection::Up,
        Some(why) => Connection::Lost(why.clone()),
        None => Connection::Connecting,
    };
    let invite = hosting.map_or_else(|| online.url().to_owned(), Hosting::invite_url);
    let link = online.table.as_ref().and_then(|table| tabula_server::page::table_link(&invite, table));
    TableNews {
        seats,
        waiting: !online.all_seated(),
        line: Some(TableLine {
            connection,
            address: online.url().to_owned(),
            code: online.table.clone(),
            invite,
            link,
        }),
        seat: online.seat,
        take_back: online.take_back,
        rematch_asked: online.rematch_asked.clone(),
    }
}

#[cfg(test)]
mod tests {
    use tabula_engine::Player;

    use super::*;

    #[test]
    fn no_table_no_news() {
        let mut app = App::new();
        app.init_resource::<TableNews>().add_systems(Update, tell_the_panels);
        app.world_mut().resource_mut::<TableNews>().seat = Some(Player::ONE);
        app.update();
        assert_eq!(*app.world().resource::<TableNews>(), TableNews::default(), "a table left says nothing");
    }
}
