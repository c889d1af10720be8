//! `kafka-quota` end to end, as one integration-test binary: each module
//! runs the built CLI the way an operator would and checks its output and
//! exit codes.

mod advise;
mod apply;
mod common;
mod interchange;
mod ip;
mod kerberos;
mod live_peers;
mod monitoring;
mod pipe;
mod principal_dn;
mod resolve;
mod sensor;
mod simulate;
mod state;
