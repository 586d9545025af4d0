//! The replier a [`crate::Request`] answers through: the render side's with the `automation`
//! feature, an uninhabited one without (no request is ever made). A leaf: `input` names it, and
//! nothing here names `input`.

#[cfg(feature = "automation")]
pub(crate) use crate::link::Replier;

#[cfg(not(feature = "automation"))]
pub(crate) use off::Replier;

#[cfg(not(feature = "automation"))]
mod off {
    use crate::protocol::{Failure, Verb};

    /// No request is ever made.
    #[derive(Clone)]
    pub(crate) enum Replier {}

    impl Replier {
        pub fn send(&self, _: u64, _: Verb, _: Result<String, Failure>) {
            match *self {}
        }
    }
}
