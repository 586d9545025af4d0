//! The service thread's end of the link to the render side: the channels both ways, the app's
//! waker, and whether the app owes a drawn frame. Sending an order goes through here; what to
//! send is the service's (`forward.rs`, `tracing.rs`).

use crossbeam_channel::TrySendError;

use winit_automation_link::Waker;
use winit_automation_link::wiring::{Order, ServiceChannels};

/// The channels to and from the render side, and the app's waker.
pub(crate) struct RenderLink {
    ends: ServiceChannels,
    waker: Waker,
    /// The last order sent was followed by another command that draws, so its frame may not
    /// have been drawn: if no command goes out after it, the app is woken for a frame that is.
    picture_owed: bool,
}

impl RenderLink {
    /// The service's channel ends, and the waker that asks the app for a frame.
    pub fn new(ends: ServiceChannels, waker: Waker) -> RenderLink {
        RenderLink {
            ends,
            waker,
            picture_owed: false,
        }
    }

    /// The receiving ends, for the service's `select!`.
    pub fn ends(&self) -> &ServiceChannels {
        &self.ends
    }

    /// The last frame the render side published.
    pub fn published(&self) -> u64 {
        self.ends.counters.published()
    }

    /// The frame the render side is building.
    pub fn building(&self) -> u64 {
        self.ends.counters.building()
    }

    /// Asks the app for a frame.
    pub fn wake_app(&self) {
        (self.waker)();
    }

    /// Sends an action's order (or a step of one). When the order says it is `followed` by a
    /// command that draws over its frame, a picture is owed until another order goes out.
    #[allow(
        clippy::result_large_err,
        reason = "the channel's own error, handing a full channel's order back at once"
    )]
    pub fn send_action(&mut self, order: Order) -> Result<(), TrySendError<Order>> {
        self.picture_owed = order.followed;
        self.ends.orders.try_send(order)
    }

    /// Sends an order of the service's own (a trace's capture), which owes no picture; `false`
    /// when the channel is full or closed.
    pub fn send_own(&self, order: Order) -> bool {
        self.ends.orders.try_send(order).is_ok()
    }

    /// Whether the app is to be woken for the frame an order's follower was meant to draw, now
    /// that nothing is in flight (`in_flight` is 0): once.
    pub fn take_owed_picture(&mut self, in_flight: usize) -> bool {
        if self.picture_owed && in_flight == 0 {
            self.picture_owed = false;
            return true;
        }
        false
    }
}
