fn main() {
    yew::Renderer::<quota_playground::App>::new().render();
}
