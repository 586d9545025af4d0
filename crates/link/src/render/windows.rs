//! What the app tells the render side between and during frames: its windows' state and events,
//! the scene (tree updates, widget records, layers, the adapter, surfaces, animation) and the node
//! that took a press. Each goes to the service thread behind whatever is still held back.
//!
//! The app names a window by its platform id; each of these takes it to the window's number
//! (`numbers.rs`) first: a report of a window (its state, tree, widgets, layers, surface,
//! animation, pass) numbers a window it names for the first time, and an event of one never
//! reported (its size, scale factor, focus, end, a press's report) is ignored.

use super::{RenderEnd, State};
use crate::SceneChange;
use crate::window::{Layers, WindowState};

impl RenderEnd {
    /// Sends a window's layers when they differ from the last ones sent (copying them only then).
    pub fn layers(&self, window: u64, layers: &Layers) {
        let mut guard = self.state();
        let state = &mut *guard;
        let window = state.numbers.assign(window);
        let last = state.layers.get(&window);
        if last.map_or(layers.is_empty(), |l| same_layers(l, layers)) {
            return;
        }
        match state.layers.get_mut(&window) {
            Some(l) => l.clone_from(layers),
            None => {
                state.layers.insert(window, layers.clone());
            }
        }
        state.backlog.push_back((
            self.link.counters.building(),
            SceneChange::Layers(window, layers.clone()),
        ));
        self.flush_backlog(&mut state.backlog);
    }

    /// Records which node took the press delivered to `window` this frame (or, for a window whose
    /// pass is announced, since its last pass); ignored when there is none.
    pub fn pointer_hit(&self, window: u64, node: Option<accesskit::NodeId>) {
        let mut guard = self.state();
        let state = &mut *guard;
        let Some(window) = state.numbers.number(window) else {
            return;
        };
        for held in state.held.iter_mut() {
            if held.hit.check.window == window {
                held.hit.check.record(&mut held.hit.reported, node);
            }
        }
        for p in state.pending.iter_mut().filter(|p| p.awaiting.is_some()) {
            if let Some(check) = p.plan.as_ref().and_then(|plan| plan.press.as_ref())
                && check.window == window
            {
                check.record(&mut p.reported, node);
            }
        }
    }

    /// Sends an AccessKit update (full or incremental) of `window`'s tree.
    pub fn tree_update(&self, window: u64, update: accesskit::TreeUpdate) {
        self.send_window_scene(window, |n| SceneChange::Update(n, update));
    }

    /// Sends `window`'s full set of widget records for this frame.
    pub fn widgets(&self, window: u64, widgets: Vec<crate::Widget>) {
        self.send_window_scene(window, |n| SceneChange::Widgets(n, widgets));
    }

    /// The GPU adapter the app renders with (the snapshot header names it).
    pub fn gpu(&self, info: crate::GpuInfo) {
        self.send_scene(SceneChange::Gpu(info));
    }

    /// A window's surface: its size and format (the snapshot header names them).
    pub fn surface(&self, window: u64, info: crate::SurfaceInfo) {
        self.send_window_scene(window, |n| SceneChange::Surface(n, info));
    }

    /// Records `window`'s state, adding a window not known yet, and sends it when it changed.
    pub fn window_state(&self, window: u64, state: WindowState) {
        self.update_window(window, true, |s| *s = state);
    }

    /// Hands a scene change to the service thread (behind whatever is still held back).
    fn send_scene(&self, msg: SceneChange) {
        let mut state = self.state();
        state
            .backlog
            .push_back((self.link.counters.building(), msg));
        self.flush_backlog(&mut state.backlog);
    }

    /// Hands over the scene change `msg` makes of the number of the window the app names
    /// `window` (numbered now if it is new).
    fn send_window_scene(&self, window: u64, msg: impl FnOnce(u64) -> SceneChange) {
        let mut guard = self.state();
        let state = &mut *guard;
        let window = state.numbers.assign(window);
        state
            .backlog
            .push_back((self.link.counters.building(), msg(window)));
        self.flush_backlog(&mut state.backlog);
    }

    /// Records a window's state and sends it when it changed. `create`: a window not known yet is
    /// added (from `window_state`); otherwise it is ignored (events of a window
    /// the app never told the plugin about).
    fn update_window(&self, window: u64, create: bool, change: impl FnOnce(&mut WindowState)) {
        let mut guard = self.state();
        let state = &mut *guard;
        let window = if create {
            state.numbers.assign(window)
        } else {
            match state.numbers.number(window) {
                Some(n) if state.windows.contains_key(&n) => n,
                _ => return,
            }
        };
        let entry = state.windows.entry(window).or_insert_with(|| WindowState {
            title: String::new(),
            width: 0.0,
            height: 0.0,
            scale_factor: 1.0,
            focused: false,
        });
        let before = entry.clone();
        change(entry);
        if *entry != before {
            let msg = SceneChange::State(window, entry.clone());
            state
                .backlog
                .push_back((self.link.counters.building(), msg));
            self.flush_backlog(&mut state.backlog);
        }
    }

    /// A known window's content took this size in physical pixels (a window system's resize
    /// event); ignored for a window the app never told the plugin about.
    pub fn window_resized(&self, window: u64, width: u32, height: u32) {
        self.update_window(window, false, |s| {
            let scale = s.scale_factor.max(f64::MIN_POSITIVE);
            s.width = f64::from(width) / scale;
            s.height = f64::from(height) / scale;
        })
    }

    /// A known window's scale factor changed; its physical size stays until the resize that
    /// follows.
    pub fn window_rescaled(&self, window: u64, scale_factor: f64) {
        let scale_factor = scale_factor.max(f64::MIN_POSITIVE);
        self.update_window(window, false, |s| {
            let (w, h) = (s.width * s.scale_factor, s.height * s.scale_factor);
            s.scale_factor = scale_factor;
            s.width = w / scale_factor;
            s.height = h / scale_factor;
        })
    }

    /// A known window gained or lost the keyboard focus.
    pub fn window_focused(&self, window: u64, focused: bool) {
        self.update_window(window, false, |s| s.focused = focused)
    }

    /// Records whether a window is animating; sends it only when it changed, so calling it every
    /// frame costs a lock and a comparison.
    pub fn animating(&self, window: u64, on: bool) {
        let mut guard = self.state();
        let state = &mut *guard;
        let window = state.numbers.assign(window);
        if state.animating.contains(&window) == on {
            return;
        }
        if on {
            state.animating.push(window);
        } else {
            state.animating.retain(|w| *w != window);
        }
        state.backlog.push_back((
            self.link.counters.building(),
            SceneChange::Animating(window, on),
        ));
        self.flush_backlog(&mut state.backlog);
    }

    /// `window`'s toolkit ran its pass (handled its input) in this frame: a press delivered to it
    /// is reported in this pass, so its answer need wait no longer. Announced by
    /// an adapter whose windows run their passes in frames of their own (the egui plugin's
    /// deferred viewports); a window never announced is answered when its press's frame ends.
    pub fn window_pass(&self, window: u64) {
        let mut guard = self.state();
        let state = &mut *guard;
        let window = state.numbers.assign(window);
        if !state.passes.contains(&window) {
            state.passes.push(window);
        }
        see_pass(state, window);
    }

    /// `window` is gone: its presses are answered with this frame, what the render side knew of it
    /// is dropped, and the service thread is told. Its number is not given again.
    pub fn window_closed(&self, window: u64) {
        let window = {
            let mut state = self.state();
            let Some(window) = state.numbers.close(window) else {
                return;
            };
            // A closed window runs no more passes: its presses are answered with this frame.
            see_pass(&mut state, window);
            state.passes.retain(|w| *w != window);
            state.windows.remove(&window);
            state.animating.retain(|w| *w != window);
            state.layers.remove(&window);
            window
        };
        self.send_scene(SceneChange::Closed(window));
    }
}

/// Whether two layer reports say the same, comparing rectangles bit for bit: a NaN in a clip (an
/// app's unfinished layout) is the same NaN next frame, not a change to send again.
fn same_layers(a: &Layers, b: &Layers) -> bool {
    let bits = |r: &Option<accesskit::Rect>| r.map(|r| [r.x0, r.y0, r.x1, r.y1].map(f64::to_bits));
    a.order == b.order
        && a.modal == b.modal
        && a.clips.len() == b.clips.len()
        && a.clips
            .iter()
            .zip(&b.clips)
            .all(|((i, r), (j, q))| i == j && bits(r) == bits(q))
}

/// Marks the presses waiting for `window`'s pass as seen.
fn see_pass(state: &mut State, window: u64) {
    for held in state.held.iter_mut() {
        if held.hit.check.window == window {
            held.awaiting.seen = true;
        }
    }
    for p in state.pending.iter_mut() {
        let of_window = p
            .plan
            .as_ref()
            .and_then(|plan| plan.press.as_ref())
            .is_some_and(|check| check.window == window);
        if let (Some(a), true) = (&mut p.awaiting, of_window) {
            a.seen = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use accesskit::{NodeId, Rect};

    #[test]
    fn a_nan_clip_is_the_same_next_frame_and_a_moved_clip_is_not() {
        let with = |r: Rect| Layers {
            order: vec![NodeId(1)],
            modal: None,
            clips: vec![(NodeId(2), Some(r))],
        };
        let nan = with(Rect::new(f64::NAN, 0.0, 10.0, 10.0));
        assert!(
            nan != nan.clone(),
            "PartialEq alone would send it every frame"
        );
        assert!(same_layers(&nan, &nan.clone()));
        let a = with(Rect::new(0.0, 0.0, 10.0, 10.0));
        assert!(same_layers(&a, &a.clone()));
        assert!(!same_layers(&a, &with(Rect::new(0.0, 0.0, 10.0, 11.0))));
        assert!(!same_layers(&a, &nan));
        assert!(!same_layers(&a, &Layers::default()));
    }
}
