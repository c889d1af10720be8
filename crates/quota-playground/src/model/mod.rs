//! View models: everything the panels show, derived from the scenario by
//! asking the engine. Pure functions, tested natively; the components only
//! lay these values out. What the Timeline holds at the cursor is read with
//! the engine's own queries (`quota_engine::sim`'s cursor: `Timeline::event_times`,
//! `SensorTrack::samples_at`, `ClientTrack::at`, ...).
//!
//! No Kafka rule lives here: validation is the engine's `QuotaStore::plan`,
//! principals, resolution, budgets and the IP connection rate come from its
//! `cluster::Cluster`, and the simulation from `sim::simulate`.
//!
//! By concern: `edit` (scenario edits the reducer makes), `parse` (numbers
//! as typed), `format` (units and amounts as the page writes them),
//! `analysis` (the engine's verdicts and the simulation), `scale` (SVG scales),
//! `limits` (how large a scenario the page takes: links, imports and
//! runs alike), `status` (a client's state at the cursor, its failures named), `answer`
//! (the one-sentence answer per connection the page opens with), `advice`
//! ("make this apply" proposals, near misses, capacity and scope notes
//! beside the ladder), `cluster_edit` (topics, leaders, events and client
//! times, checked by the engine) and `cluster` (budgets and clients per
//! broker and over the cluster).

mod advice;
mod analysis;
mod answer;
mod client_settings;
mod cluster;
mod cluster_edit;
mod edit;
mod format;
mod parse;
mod scale;
mod status;

pub use advice::*;
pub use analysis::*;
pub use answer::*;
pub use client_settings::*;
pub use cluster::*;
pub use cluster_edit::*;
pub use edit::*;
pub use format::*;
pub use quota_formats::limits::*;
pub use parse::*;
pub use scale::*;
pub use status::*;

