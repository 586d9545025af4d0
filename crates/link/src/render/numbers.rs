//! The windows' numbers: the plugin's own, 1, 2, ... in the order the app first names each window,
//! on every backend. The app names a window by its platform id (winit's `WindowId` as a number:
//! an X11 window id, a Wayland surface's address; an egui viewport's id), which differs from run to
//! run; everything past the render end (the service thread, every snapshot, answer, trace and
//! journal line, the render side's own messages) knows the window by its number alone, and input
//! goes back to the app under the platform id.
//!
//! Runs on the render thread, under the render end's lock: a lookup scans a short vector; only a
//! window's first sight allocates.

/// The number of each window the app named, by platform id.
#[derive(Debug, Default)]
pub(super) struct Numbers {
    /// Window `n` at index `n - 1`: a number is never given again, not even once its window
    /// closed.
    windows: Vec<Numbered>,
}

#[derive(Debug, Clone, Copy)]
struct Numbered {
    /// The app's id for it.
    platform: u64,
    /// Closed: the platform id may come back as another window (a Wayland surface's address is
    /// reused), which takes the next number.
    closed: bool,
}

impl Numbers {
    /// The number of the open window `platform`, given the next number on first sight.
    pub(super) fn assign(&mut self, platform: u64) -> u64 {
        if let Some(n) = self.number(platform) {
            return n;
        }
        self.windows.push(Numbered {
            platform,
            closed: false,
        });
        self.windows.len() as u64
    }

    /// The number of the open window `platform`; `None` for one never named (or closed since).
    pub(super) fn number(&self, platform: u64) -> Option<u64> {
        self.windows
            .iter()
            .position(|w| w.platform == platform && !w.closed)
            .map(|i| i as u64 + 1)
    }

    /// The window `platform` closed: its number, which no window takes again.
    pub(super) fn close(&mut self, platform: u64) -> Option<u64> {
        let n = self.number(platform)?;
        if let Some(w) = self.windows.get_mut(n as usize - 1) {
            w.closed = true;
        }
        Some(n)
    }

    /// The platform id of window `number`, to hand its input to the app (a number never given,
    /// which only a service that invents windows would name, goes through as it is).
    pub(super) fn platform(&self, number: u64) -> u64 {
        usize::try_from(number)
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| self.windows.get(i))
            .map_or(number, |w| w.platform)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const X11: u64 = 2_097_154;
    const WAYLAND: u64 = 94_241_260_025_984;

    #[test]
    fn windows_are_numbered_in_the_order_they_are_first_named() {
        let mut numbers = Numbers::default();
        assert_eq!(numbers.number(X11), None);
        assert_eq!(numbers.assign(X11), 1);
        assert_eq!(numbers.assign(WAYLAND), 2);
        assert_eq!(numbers.assign(X11), 1, "a window keeps its number");
        assert_eq!(numbers.number(WAYLAND), Some(2));
        assert_eq!(numbers.assign(7), 3);
    }

    #[test]
    fn a_closed_window_s_number_is_never_given_again() {
        let mut numbers = Numbers::default();
        numbers.assign(X11);
        numbers.assign(WAYLAND);
        assert_eq!(numbers.close(X11), Some(1));
        assert_eq!(numbers.close(X11), None, "closed once");
        assert_eq!(numbers.number(X11), None);
        assert_eq!(numbers.assign(7), 3, "the next number, not the freed one");
        assert_eq!(
            numbers.assign(X11),
            4,
            "a platform id that comes back is a new window"
        );
        assert_eq!(numbers.number(WAYLAND), Some(2));
    }

    #[test]
    fn input_goes_back_to_the_app_under_the_platform_id() {
        let mut numbers = Numbers::default();
        numbers.assign(WAYLAND);
        numbers.assign(X11);
        assert_eq!(numbers.platform(1), WAYLAND);
        assert_eq!(numbers.platform(2), X11);
        numbers.close(X11);
        assert_eq!(numbers.platform(2), X11, "a step still in flight");
        assert_eq!(numbers.platform(9), 9);
        assert_eq!(numbers.platform(0), 0);
    }
}
