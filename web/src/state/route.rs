//! The address in the URL fragment: `#/<view>` names the view shown ([`Tab::key`]; the
//! router, `app::routes`, reads and writes it), and a share link's state
//! ([`ravenshard_model::share`]) follows as its query: `#/map?shards=3&ids=orders%2F1-A`.
//! Share links made before the views had addresses, `#shards=3&ids=…` and `#z=…`, still
//! open: their whole fragment is the state, with no view. The router reads only fragments
//! that start with `/`: [`routed_fragment`] gives the one an older link becomes first.
//!
//! [`follow`] says how the address and the view shown follow each other.

use super::tab::Tab;

/// A share link's state in a URL fragment (`location.hash`, with or without its `#`): the
/// query of `#/<view>?<state>`, or all of an older link's `#<state>`.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::route::shared_state;
/// assert_eq!(shared_state("#/map?shards=3"), Some("shards=3"));
/// assert_eq!(shared_state("#shards=3&ids=a"), Some("shards=3&ids=a"));
/// assert_eq!(shared_state("#/map"), None);
/// ```
pub fn shared_state(hash: &str) -> Option<&str> {
    let fragment = hash.strip_prefix('#').unwrap_or(hash);
    let shared = match fragment.strip_prefix('/') {
        Some(routed) => routed.split_once('?')?.1,
        // A share link from before the views' addresses: all of it is the state.
        None => fragment,
    };
    (!shared.trim().is_empty()).then_some(shared)
}

/// The fragment, with its `#`, that the router reads in place of `hash` when `hash` does
/// not start with `#/`: `#/` for an empty one, `#/?<state>` for an older share link (its
/// view is then the studio's). `None` when `hash` is already one the router reads.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::route::routed_fragment;
/// assert_eq!(routed_fragment(""), Some("#/".to_string()));
/// assert_eq!(routed_fragment("#z=eJw"), Some("#/?z=eJw".to_string()));
/// assert_eq!(routed_fragment("#/reshard"), None);
/// ```
pub fn routed_fragment(hash: &str) -> Option<String> {
    let fragment = hash.strip_prefix('#').unwrap_or(hash);
    if fragment.starts_with('/') {
        return None;
    }
    Some(match shared_state(fragment) {
        Some(shared) => format!("#/?{shared}"),
        None => "#/".to_string(),
    })
}

/// Where the address points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// `#/`: no view named.
    Home,
    /// `#/<key>`: a view.
    View(Tab),
    /// A path that names no view (a mistyped or a newer studio's address).
    Unknown,
}

/// What follows from an address and the view shown ([`follow`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Follow {
    /// They agree.
    Stay,
    /// The view changed (a tab, a key, a view's link): a new address, one step back to
    /// the one before.
    Push,
    /// The address changed (a reload, a bookmark, Back or Forward): show its view.
    Show(Tab),
    /// The address names no view: it is replaced by the view shown's (no step back).
    Replace,
}

/// How the address `at` and the view shown, `tab`, follow each other after a render in
/// which the view changed (`tab_changed`) or not. The view's change wins: the address
/// follows it; otherwise the view follows the address.
///
/// # Examples
///
/// ```
/// use ravenshard_studio::state::route::{follow, At, Follow};
/// use ravenshard_studio::state::Tab;
/// assert_eq!(follow(Tab::Documents, false, At::View(Tab::Map)), Follow::Show(Tab::Map));
/// assert_eq!(follow(Tab::Shards, true, At::View(Tab::Map)), Follow::Push);
/// assert_eq!(follow(Tab::Map, false, At::Home), Follow::Replace);
/// ```
pub fn follow(tab: Tab, tab_changed: bool, at: At) -> Follow {
    match at {
        At::View(shown) if shown == tab => Follow::Stay,
        _ if tab_changed => Follow::Push,
        At::View(named) => Follow::Show(named),
        At::Home | At::Unknown => Follow::Replace,
    }
}

#[cfg(test)]
mod tests {
    use super::{follow, routed_fragment, shared_state, At, Follow};
    use crate::state::Tab;
    use ravenshard_model::share::decode_fragment;

    #[test]
    fn the_state_is_the_query_of_an_address_and_all_of_an_older_link() {
        let state = "shards=3&ids=orders/1-A%0Ausers/2";
        for tab in Tab::all() {
            let key = tab.key();
            assert_eq!(shared_state(&format!("#/{key}?{state}")), Some(state));
            assert_eq!(shared_state(&format!("/{key}?{state}")), Some(state));
            assert_eq!(shared_state(&format!("#/{key}")), None);
            assert_eq!(routed_fragment(&format!("#/{key}?{state}")), None);
        }
        for hash in ["", "#", "#/", "/", "#/?", "#/map?", "#  ", "#/?  "] {
            assert_eq!(shared_state(hash), None, "{hash:?}");
        }
    }

    #[test]
    fn older_share_links_keep_their_state_behind_the_router_s_slash() {
        let links = [
            "#shards=3&ids=orders%2F1-A%0AUsers%2F70%24Users%2F4",
            // A `?` in an ID stays in the state: the query is everything after the first.
            "#shards=2&ids=what%3F/1?x",
            "#z=7VbBbtswDP0V",
        ];
        for link in links {
            let state = &link[1..];
            assert_eq!(shared_state(link), Some(state));
            let routed = routed_fragment(link).unwrap();
            assert_eq!(routed, format!("#/?{state}"));
            assert_eq!(shared_state(&routed), Some(state));
            assert_eq!(routed_fragment(&routed), None);
        }
        let routed = routed_fragment(links[0]).unwrap();
        let shared = decode_fragment(shared_state(&routed).unwrap()).unwrap();
        assert_eq!(shared.shards, Some(3));
        assert_eq!(shared.documents.len(), 2);
        assert_eq!(routed_fragment("#"), Some("#/".into()));
        assert_eq!(routed_fragment("  "), Some("#/".into()));
    }

    #[test]
    fn the_view_and_the_address_follow_whichever_changed() {
        for tab in Tab::all() {
            for changed in [false, true] {
                assert_eq!(follow(tab, changed, At::View(tab)), Follow::Stay);
                let unnamed = if changed {
                    Follow::Push
                } else {
                    Follow::Replace
                };
                assert_eq!(follow(tab, changed, At::Home), unnamed);
                assert_eq!(follow(tab, changed, At::Unknown), unnamed);
            }
            for other in Tab::all().filter(|&t| t != tab) {
                assert_eq!(follow(tab, false, At::View(other)), Follow::Show(other));
                assert_eq!(follow(tab, true, At::View(other)), Follow::Push);
            }
        }
    }
}
