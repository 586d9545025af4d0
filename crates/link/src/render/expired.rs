//! The answer to an order whose deadline passed.

use winit_automation_protocol::{ErrorCode, Failure};

/// The answer to an order whose deadline passed after `delivered` of its `total` input stages.
pub(super) fn expired(delivered: usize, total: usize) -> Failure {
    if delivered == 0 {
        Failure::new(
            ErrorCode::Expired,
            "its deadline passed before the app's next frame took it; it was not carried out",
            "its client has given up on it; send it again with a longer --timeout if it is still wanted",
        )
    } else {
        Failure::new(
            ErrorCode::Expired,
            format!(
                "its deadline passed after {delivered} of its {total} input stages were delivered; the rest was dropped (but for the release of anything pressed)"
            ),
            "it was partly carried out: check the app's state before sending it again",
        )
    }
}
