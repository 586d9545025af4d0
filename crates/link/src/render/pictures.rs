//! A frame's pictures ([`Pictures`]): the screenshots (and trace frames) that wait for its
//! texture, and the copies encoded from it. They belong to the open frame until
//! [`RenderEnd::publish`], then to the [`PublishedFrame`], which takes them wherever it is
//! drawn: the next frame may open on the app's thread while a published one is drawn on another
//! (pipelined drawing).

use super::{RenderEnd, State, scale_of};
use crate::pictures::{
    CopiedCapture, PendingCapture, Pictures, PublishedFrame, ToolkitScreenshots,
};
use crate::{CaptureJob, Reader};
use winit_automation_protocol::{ErrorCode, Failure};

impl RenderEnd {
    /// Publishes the frame being built before it is drawn, and lets the next frame open: its tree
    /// is complete, so the answers given during it are written now, not after the GPU work, and
    /// its pictures go with it. A frame that did not ask for its input (`asked`) while orders
    /// wait, or that another asked to join, asks for the next frame.
    pub fn publish(&self, asked: bool) -> PublishedFrame {
        let (published, stages_left, wake) = {
            let mut guard = self.state();
            let state = &mut *guard;
            let wake = self.close(state, asked);
            let (number, flushed) = self.publish_locked(state);
            let mut pictures = std::mem::take(&mut state.pictures);
            // Drawn later, maybe on another thread: the scale factors are this frame's.
            pictures.stamp(|window| scale_of(&state.windows, window));
            let superseded = state.superseded && !pictures.wants_any();
            let published = PublishedFrame {
                number,
                flushed,
                superseded,
                pictures,
            };
            (published, state.waits_for_frames(), wake)
        };
        self.after_publish(stages_left, published.flushed, wake);
        published
    }

    /// Ends the frame after it was drawn: publishes it (unless `publish` did, which returned
    /// `published`) and hands its screenshot copies to the service thread. A frame that did not
    /// ask for its input (`asked`) while orders wait asks for the next frame, which may.
    pub fn end_frame(&self, published: Option<PublishedFrame>, asked: bool) {
        let Some(published) = published else {
            let (stages_left, flushed, replied_for_next) = {
                let mut guard = self.state();
                let state = &mut *guard;
                let joined = self.close(state, asked);
                let (frame, flushed) = self.publish_locked(state);
                let pictures = std::mem::take(&mut state.pictures);
                let (replied, _) = self.hand_over(state, frame, flushed, pictures);
                (state.waits_for_frames(), flushed, replied || joined)
            };
            return self.after_publish(stages_left, flushed, replied_for_next);
        };
        // Published already, and the next frame may be open: only its pictures are left.
        let PublishedFrame {
            number,
            flushed,
            pictures,
            ..
        } = published;
        if pictures.is_empty() {
            return;
        }
        // A later frame may have sent the scene changes this one could not.
        let flushed = flushed || self.link.counters.published() >= number;
        let (replied, skipped) = self.hand_over(&mut self.state(), number, flushed, pictures);
        // Screenshots of a frame that ended undrawn wait for the next frame drawn. The app asked
        // for that frame, but when it was drawn on another thread a later frame may have opened
        // and been published before this one ended, without them: then the app is woken.
        let later = self.link.counters.building() > number + 1;
        if replied || (skipped && later) {
            self.wake();
        }
    }

    /// Closes the open frame (the next may open); returns whether the next frame must come: one
    /// asked to join this one, or this one did not ask for its input (`asked`) while orders wait.
    fn close(&self, state: &mut State, asked: bool) -> bool {
        state.open = false;
        std::mem::take(&mut state.joined) || (!asked && !self.link.orders.is_empty())
    }

    /// Whether a screenshot of `window` waits for the frame's texture: the `published` frame's, or
    /// else the open frame's.
    pub fn wants_capture(&self, window: u64, published: Option<&PublishedFrame>) -> bool {
        match published {
            // The lock only when a screenshot waits: the window's number is behind it.
            Some(p) if !p.pictures.wants_any() => false,
            Some(p) => {
                let number = self.state().numbers.number(window);
                number.is_some_and(|n| p.pictures.wants(n))
            }
            None => {
                let state = self.state();
                let number = state.numbers.number(window);
                number.is_some_and(|n| state.pictures.wants(n))
            }
        }
    }

    /// Whether the frame's picture is drawn over before anyone could want it: all its input is
    /// followed by a later frame's, and no screenshot waits for it.
    pub fn superseded(&self, published: Option<&PublishedFrame>) -> bool {
        match published {
            Some(p) => p.superseded,
            None => {
                let state = self.state();
                state.superseded && !state.pictures.wants_any()
            }
        }
    }

    /// Has `copy` make a copy of `window`'s frame for each screenshot waiting for it (the
    /// frame loop's GPU code: it encodes the copy and returns the reader the service thread runs
    /// to wait for it, or why the frame cannot be copied). `copy` is given the scale factor of
    /// the frame.
    ///
    /// `copy` runs under the render end's lock: it must only encode the copy, never wait, and
    /// never call back into this `RenderEnd` (that would deadlock).
    pub fn capture(
        &self,
        window: u64,
        published: Option<&mut PublishedFrame>,
        copy: &mut dyn FnMut(f64) -> Result<Reader, Failure>,
    ) {
        let mut guard = self.state();
        let state = &mut *guard;
        let Some(window) = state.numbers.number(window) else {
            return;
        };
        let mut published = published;
        let Some(mine) = take_wanted(state, window, published.as_deref_mut()) else {
            return;
        };
        let pictures = match published {
            Some(p) => &mut p.pictures,
            None => &mut state.pictures,
        };
        if !state.captured.contains(&window) {
            state.captured.push(window);
        }
        for pending in mine {
            match copy(pending.scale) {
                Ok(read) => pictures.add_copied(CopiedCapture { pending, read }),
                Err(failure) => {
                    pending.refuse(&self.replier, failure);
                }
            }
        }
    }

    /// Takes the screenshots of `window` waiting for the frame, for the toolkit to answer with
    /// the pixels of frame `frame` once it has read them back itself.
    pub fn toolkit_capture(
        &self,
        window: u64,
        frame: u64,
        published: Option<&mut PublishedFrame>,
    ) -> Option<ToolkitScreenshots> {
        let mut state = self.state();
        let window = state.numbers.number(window)?;
        let pending = take_wanted(&mut state, window, published)?;
        drop(state);
        let scale = pending.first().map_or(1.0, |w| w.scale);
        Some(ToolkitScreenshots {
            window,
            pending,
            frame,
            scale,
            captures: self.link.captures.clone(),
            replier: self.request_replier.clone(),
        })
    }

    /// After frame `frame` is published (`flushed`; else all of `pictures` waits for the next
    /// frame's end): its copies go to the service thread to be read back; screenshots of a window
    /// captured before that this frame did not draw wait for the next frame drawn; those of a
    /// window never captured are answered with the reason. Returns whether copies wait for the
    /// next frame's end or an answer was given (stamped with the next frame), and whether
    /// screenshots wait for the next frame drawn.
    fn hand_over(
        &self,
        state: &mut State,
        frame: u64,
        flushed: bool,
        pictures: Pictures,
    ) -> (bool, bool) {
        if !flushed {
            let waits = !pictures.is_empty();
            state.pictures.put_back(pictures);
            return (waits, false);
        }
        let (pending, copied) = pictures.into_parts();
        let mut replied = false;
        for s in copied {
            let (seq, verb) = (s.pending.seq, s.pending.command.verb());
            // Nobody waits for a trace's frame: one that cannot be handed over is dropped.
            let for_trace = s.pending.to.is_trace();
            let job = CaptureJob {
                seq,
                verb,
                frame,
                to: s.pending.to.clone(),
                crop: s.pending.crop,
                read: s.read,
            };
            if self.link.captures.try_send(job).is_err() && !for_trace {
                replied = true;
                self.replier.send(
                    seq,
                    verb,
                    Err(Failure::new(
                        ErrorCode::AppError,
                        "the screenshot could not be handed to the service thread",
                        "the app is shutting down, or too many screenshots are waiting; try again",
                    )),
                );
            }
        }
        let (skipped, never): (Vec<PendingCapture>, Vec<PendingCapture>) = pending
            .into_iter()
            .partition(|w| state.captured.contains(&w.window));
        // The app skipped drawing: it asks for the frame that draws (an occluded window waits
        // for its `Occluded(false)`), so waking it here could spin (but see `end_frame`).
        let waits = !skipped.is_empty();
        if waits {
            state.pictures.put_back(Pictures::of(skipped));
        }
        for w in never {
            replied |= w.refuse(
                &self.replier,
                Failure::new(
                    ErrorCode::Unsupported,
                    format!("the app did not hand window {}'s frame to Frame::capture", w.window),
                    "call Frame::capture with the frame's texture before submitting each frame (docs/integration.md, Screenshots)",
                ),
            );
        }
        (replied, waits)
    }
}

/// The screenshots of `window` the frame owes (`published`, or the open frame), taken out, each
/// with the frame's scale factor: the window's now for the open frame, stamped when it was
/// published otherwise. `None` when none waits.
fn take_wanted(
    state: &mut State,
    window: u64,
    published: Option<&mut PublishedFrame>,
) -> Option<Vec<PendingCapture>> {
    match published {
        Some(p) => p.pictures.take(window),
        None => {
            let mut mine = state.pictures.take(window)?;
            let scale = scale_of(&state.windows, window);
            mine.iter_mut().for_each(|w| w.scale = scale);
            Some(mine)
        }
    }
}
