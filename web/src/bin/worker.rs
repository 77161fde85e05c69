//! The studio's Web Worker (trunk's worker target): registers
//! [`StudioWorker`]. It links the model crates,
//! not yew: nothing of the page's components is reachable from here.

use gloo::worker::Registrable;
use ravenshard_studio::worker::StudioWorker;

fn main() {
    StudioWorker::registrar().register();
}
