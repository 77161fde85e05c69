//! Each view's address, `#/<key>` ([`Route`]), with yew-router's `HashRouter` (the studio
//! is static files: the address is the URL fragment). A share link's state follows as
//! the address's query (`#/map?shards=3…`, [`crate::state::route`]). Clicking a tab (or
//! any change of the view) pushes its address, so Back shows the view before; a reload,
//! a bookmark, Back and Forward show the address's view ([`use_view_address`]).

use crate::state::route::{follow, routed_fragment, At, Follow};
use crate::state::{Level, Notice, NoticeAction, Tab, ViewAction};
use gloo::events::EventListener;
use yew::hook;
use yew::prelude::*;
use yew_router::prelude::*;
use yew_router::query::Raw;

/// The studio's addresses.
#[derive(Debug, Clone, PartialEq, Routable)]
pub enum Route {
    /// `#/`: the view the studio holds (the saved studio's, or the first).
    #[at("/")]
    Home,
    /// `#/<key>`: a view ([`Tab::key`]).
    #[at("/:tab")]
    View {
        /// The view.
        tab: Tab,
    },
    /// Any other path.
    #[not_found]
    #[at("/not-a-view")]
    NotFound,
}

impl Route {
    /// Where the route points, for [`follow`].
    fn at(&self) -> At {
        match self {
            Route::Home => At::Home,
            Route::View { tab } => At::View(*tab),
            Route::NotFound => At::Unknown,
        }
    }
}

/// Makes the URL fragment one the router reads (an older share link `#<state>` becomes
/// `#/?<state>`, an empty one `#/`) now and whenever it changes after (an older link pasted
/// in the address bar): the router reads only fragments that start with `/`. Its listener
/// comes before the router's (installed once, before the router is made).
pub fn keep_routable() {
    thread_local! {
        static GUARD: EventListener = EventListener::new(&gloo::utils::window(), "popstate", |_| {
            make_routable();
        });
    }
    make_routable();
    GUARD.with(|_| ());
}

/// Replaces the fragment, in place (no step back), by [`routed_fragment`]'s.
fn make_routable() {
    let window = gloo::utils::window();
    let hash = window.location().hash().unwrap_or_default();
    if let Some(routed) = routed_fragment(&hash) {
        if let Ok(history) = window.history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&routed));
        }
    }
}

/// Keeps the address and the view shown, `tab`, together ([`follow`]): a view chosen pushes
/// its address (the share link's state kept as its query); an address changed shows its
/// view through `on_view`; an address that names no view is replaced by the view's, and
/// `on_notice` says so. Needs a router above.
#[hook]
pub fn use_view_address(
    tab: Tab,
    on_view: Callback<ViewAction>,
    on_notice: Callback<NoticeAction>,
) {
    let navigator = use_navigator();
    let location = use_location();
    let route = use_route::<Route>();
    let shown = use_mut_ref(|| tab);
    let query = location.map(|l| l.query_str().trim_start_matches('?').to_string());
    use_effect_with((tab, route, query), move |(tab, route, query)| {
        let (Some(navigator), Some(route), Some(query)) = (navigator, route, query) else {
            return;
        };
        let changed = std::mem::replace(&mut *shown.borrow_mut(), *tab) != *tab;
        let to = Route::View { tab: *tab };
        let with_state = (!query.is_empty()).then_some(Raw(query.as_str()));
        match follow(*tab, changed, route.at()) {
            Follow::Stay => {}
            Follow::Show(named) => on_view.emit(ViewAction::SelectTab(named)),
            Follow::Push => match with_state {
                Some(state) => navigator.push_with_query(&to, state).unwrap_or_default(),
                None => navigator.push(&to),
            },
            Follow::Replace => {
                if *route == Route::NotFound {
                    on_notice.emit(NoticeAction::Notify(unknown_address(*tab)));
                }
                match with_state {
                    Some(state) => navigator.replace_with_query(&to, state).unwrap_or_default(),
                    None => navigator.replace(&to),
                }
            }
        }
    });
}

/// What the studio says of an address that names no view.
fn unknown_address(tab: Tab) -> Notice {
    let keys: Vec<String> = Tab::all().map(|t| format!("#/{}", t.key())).collect();
    Notice::new(
        Level::Warning,
        format!(
            "The address names no view of this studio, so it shows {}. The views' addresses \
             are {}.",
            tab.label(),
            keys.join(", ")
        ),
    )
}
