//! A channel between two workers (a `MessageChannel`), so that what one worker needs of
//! another goes straight to it, not through the page: the Resharding view's worker asks
//! the workspace's host for the load per bucket there ([`LoadAsk`](super::reshard::LoadAsk),
//! [`LoadSent`](super::reshard::LoadSent)).
//!
//! The page makes the channel ([`pair`]) and transfers one port to each worker, once it
//! loaded, in a message of its own (`peer:<the other end's role>`). `gloo-worker` decodes
//! every message of a worker's global scope as its own, so the worker's listener of those
//! messages ([`listen`], added before `gloo-worker`'s) takes the port and stops the message
//! there; what comes over the channel is heard on the port itself. Each end is a typed
//! [`Link`]: its messages are bincode-encoded, each in an `ArrayBuffer` transferred, not
//! copied.

use crate::workers::client;
use crate::workers::transport::Channel;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

/// What the message that hands a worker its end of a channel says before the other end's
/// role.
const PEER: &str = "peer:";

/// Where a link's messages go.
type OnMessage = Rc<dyn Fn(Vec<u8>)>;
/// What a link does once it has a (new) port.
type OnConnect = Rc<dyn Fn()>;
/// A listener of message events.
type Listener = Closure<dyn FnMut(web_sys::MessageEvent)>;

/// A worker's end of its channel to one other worker.
#[derive(Default)]
struct End {
    port: Option<web_sys::MessagePort>,
    on_message: Option<OnMessage>,
    on_connect: Option<OnConnect>,
    _listener: Option<Listener>,
}

thread_local! {
    /// This worker's ends, by the other end's role.
    static ENDS: RefCell<HashMap<String, End>> = RefCell::new(HashMap::new());
    /// The workers paired last ([`pair`]), by their channels: their instances then.
    static PAIRED: RefCell<HashMap<(Channel, Channel), (u64, u64)>> =
        RefCell::new(HashMap::new());
    /// The listener of the ports handed to this worker ([`listen`]).
    static LISTENER: RefCell<Option<Listener>> = const { RefCell::new(None) };
}

/// Gives the workers of `a` and `b` a channel of their own, unless the ones running now
/// have one; `false` when one of them does not run (its next request starts it, and the
/// next pairing gives it a channel).
pub fn pair(a: Channel, b: Channel) -> bool {
    let (Some(ia), Some(ib)) = (client::instance(a), client::instance(b)) else {
        return false;
    };
    if PAIRED.with(|p| p.borrow().get(&(a, b)) == Some(&(ia, ib))) {
        return true;
    }
    let Ok(channel) = web_sys::MessageChannel::new() else {
        return false;
    };
    let hand = |to: Channel, other: Channel, port: web_sys::MessagePort| {
        let said = JsValue::from_str(&format!("{PEER}{}", other.role()));
        client::post_transfer(to, said, js_sys::Array::of1(&port))
    };
    let handed = hand(a, b, channel.port1()) && hand(b, a, channel.port2());
    if handed {
        PAIRED.with(|p| p.borrow_mut().insert((a, b), (ia, ib)));
    }
    handed
}

/// Listens, in a worker, for the ports the page hands it ([`pair`]), before `gloo-worker`
/// does: a message that hands a port stops here (`gloo-worker` would read it as a request
/// it cannot decode). Called once, before the worker's role is registered.
pub fn listen() {
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
            let Some(said) = e.data().as_string() else {
                return;
            };
            let Some(peer) = said.strip_prefix(PEER) else {
                return;
            };
            e.stop_immediate_propagation();
            if let Ok(port) = e.ports().get(0).dyn_into::<web_sys::MessagePort>() {
                connect(peer, port);
            }
        });
    let global = js_sys::global();
    if let Some(scope) = global.dyn_ref::<web_sys::EventTarget>() {
        let listener = on_message.as_ref().unchecked_ref();
        if scope
            .add_event_listener_with_callback("message", listener)
            .is_ok()
        {
            LISTENER.with(|l| *l.borrow_mut() = Some(on_message));
        }
    }
}

/// The port to the worker `peer` came (a new one replaces the one before): its messages
/// go to its link, which is told ([`Link::open`]'s `on_connect`).
fn connect(peer: &str, port: web_sys::MessagePort) {
    let name = peer.to_string();
    let listener =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let bytes = js_sys::Uint8Array::new(&e.data()).to_vec();
            let on_message = ENDS.with(|ends| ends.borrow().get(&name)?.on_message.clone());
            if let Some(on_message) = on_message {
                on_message(bytes);
            }
        });
    port.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    let on_connect = ENDS.with(|ends| {
        let mut ends = ends.borrow_mut();
        let end = ends.entry(peer.to_string()).or_default();
        if let Some(old) = end.port.replace(port) {
            old.close();
        }
        end._listener = Some(listener);
        end.on_connect.clone()
    });
    if let Some(on_connect) = on_connect {
        on_connect();
    }
}

/// Posts `bytes` to `peer` (their buffer transferred); `false` while this worker has no
/// port to it.
fn post(peer: &str, bytes: Vec<u8>) -> bool {
    let port = ENDS.with(|ends| ends.borrow().get(peer).and_then(|e| e.port.clone()));
    let Some(port) = port else {
        return false;
    };
    let array = js_sys::Uint8Array::from(bytes.as_slice());
    let transfer = js_sys::Array::of1(&array.buffer());
    if let Err(e) = port.post_message_with_transferable(&array, &transfer) {
        web_sys::console::error_2(&"a message to another worker was not sent:".into(), &e);
        return false;
    }
    true
}

/// A worker's typed end of its channel to the worker of another role: it sends `Out` and
/// hears `In`.
pub struct Link<Out, In> {
    peer: &'static str,
    _messages: PhantomData<fn(Out) -> In>,
}

impl<Out, In> Clone for Link<Out, In> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Out, In> Copy for Link<Out, In> {}

impl<Out: Serialize, In: DeserializeOwned + 'static> Link<Out, In> {
    /// The end to `peer` (its [`Channel`]): what comes over it goes to `on_message`
    /// (a message that does not decode is logged and dropped), and `on_connect` is called
    /// each time the page hands this worker a port to it (a new worker of that role).
    pub fn open(
        peer: Channel,
        on_message: impl Fn(In) + 'static,
        on_connect: impl Fn() + 'static,
    ) -> Link<Out, In> {
        let on_message: OnMessage =
            Rc::new(
                move |bytes: Vec<u8>| match bincode::deserialize::<In>(&bytes) {
                    Ok(message) => on_message(message),
                    Err(e) => web_sys::console::error_1(
                        &format!("a message of another worker does not decode: {e}").into(),
                    ),
                },
            );
        ENDS.with(|ends| {
            let mut ends = ends.borrow_mut();
            let end = ends.entry(peer.role().to_string()).or_default();
            end.on_message = Some(on_message);
            end.on_connect = Some(Rc::new(on_connect));
        });
        Link::to(peer)
    }

    /// The end to `peer` opened before ([`open`](Self::open)), to send on.
    pub fn to(peer: Channel) -> Link<Out, In> {
        Link {
            peer: peer.role(),
            _messages: PhantomData,
        }
    }

    /// Sends `message`; `false` while this worker has no port to the other (the link's
    /// `on_connect` is called once it has: send it again then).
    pub fn send(&self, message: &Out) -> bool {
        match bincode::serialize(message) {
            Ok(bytes) => post(self.peer, bytes),
            Err(e) => {
                let said = format!("a message to another worker does not encode: {e}");
                web_sys::console::error_1(&said.into());
                false
            }
        }
    }
}
