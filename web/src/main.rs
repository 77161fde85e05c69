//! The studio's entry point: renders [`App`] into the page's `<body>`.

use ravenshard_studio::App;

fn main() {
    yew::Renderer::<App>::new().render();
}
