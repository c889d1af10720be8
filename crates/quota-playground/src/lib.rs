//! The Kafka Quota Playground front end (Yew).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use quota_engine::{QuotaKey, QuotaType};
use yew::prelude::*;

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    html! {
        <main>
            <h1>{ "Kafka Quota Playground" }</h1>
            <ul>
                { for QuotaType::ALL.iter().map(|t| html! { <li>{ format!("{} ({})", t.metric_type(), t.key()) }</li> }) }
                <li>{ QuotaKey::ConnectionCreationRate.as_str() }</li>
            </ul>
        </main>
    }
}
