//! The gallery's "Gestures" window (examples/egui_gallery.rs): three small widgets that only a
//! gesture drives, for tests/examples/gallery/gestures.rs:
//! - a list of five rows ("Row 1" to "Row 5") that selects as file lists do: a click selects one
//!   row, ctrl-click (egui's `command`) toggles one, shift-click selects the range from the row
//!   last clicked without shift to this one, in place of the selection. Each row is a
//!   `selectable_label` (`checked` in the tree) and also says AccessKit's `selected`;
//! - "Hold to confirm", a button that acts only once it has been held down for 600 ms (a click
//!   does nothing), then shows "Confirmed";
//! - a drag-to-reorder list of four words whose rows slide to their new places in 0.4 s. As in
//!   real reorder lists, the drop is judged from where the rows are drawn, not where they will
//!   end up: the pointer entering a row's drawn box moves the gap to that row's slot (and the
//!   row slides away), and a word let go drops into the gap as it is drawn at that moment. Let
//!   go while the rows still slide and it lands short of the slot under the pointer; let go once
//!   they hold still and it lands there.
//!
//! The window opens below the widget gallery, in the strip that egui's demo windows leave free
//! at 1280x800, so it covers none of them. It lies in egui's background order, under every demo
//! window: egui places a new window by the windows of the middle order only, so the demos open
//! where they open without it, and one that opens over it covers it.
//! Included with `#[path = "shared/gestures.rs"] mod gestures;`.

use egui::{Align2, Id, Order, Pos2, Rect, Role, Sense, Vec2, WidgetInfo, pos2, vec2};

/// Where the window's bottom right corner opens: above the window's bottom edge and left of
/// the side panel (x=1121), so that it lies under the widget gallery (which ends at y=613) and
/// right of the code example (which ends at x=801). egui places a window by its guessed size
/// (600x400) in its first pass, and keeps it inside the window: a bottom right pivot keeps that
/// corner where it is when the real size is known.
const CORNER: Pos2 = pos2(1112.0, 794.0);
/// The window's content width (egui's default, 320, would reach under the code example).
const WIDTH: f32 = 250.0;
/// How long "Hold to confirm" must be held, in seconds.
const HOLD: f64 = 0.6;
/// How long a row of the reorder list takes to slide to its new slot, in seconds.
const SLIDE: f32 = 0.4;
/// The height of a slot of the reorder list (a row and the space below it).
const PITCH: f32 = 22.0;
/// The width of the reorder list.
const LIST_WIDTH: f32 = 64.0;

/// The window's state.
pub struct Gestures {
    /// Which of the five rows are selected.
    selected: [bool; 5],
    /// The row last clicked without shift: where a shift-click's range starts.
    anchor: usize,
    /// egui's time when "Hold to confirm" was pressed, while it is held.
    held_since: Option<f64>,
    /// Whether "Hold to confirm" was held long enough.
    confirmed: bool,
    /// The words of the reorder list, in their order.
    words: Vec<&'static str>,
    /// The word being dragged, if any.
    drag: Option<Drag>,
}

/// A drag in the reorder list.
struct Drag {
    /// The dragged word.
    word: &'static str,
    /// The slot the gap is heading to, in the list as drawn (the other words, and the gap).
    gap: usize,
    /// The word whose drawn row the pointer entered last, until it leaves it: entering a row
    /// moves the gap once, not again while that row slides away under the pointer.
    over: Option<&'static str>,
    /// Where the pointer holds the row, from its top left corner.
    grab: Vec2,
}

impl Default for Gestures {
    fn default() -> Self {
        Gestures {
            selected: [false; 5],
            anchor: 0,
            held_since: None,
            confirmed: false,
            words: vec!["alpha", "beta", "gamma", "delta"],
            drag: None,
        }
    }
}

impl Gestures {
    /// Shows the window.
    pub fn show(&mut self, ctx: &egui::Context) {
        let window = egui::Window::new("Gestures").order(Order::Background);
        let window = window.pivot(Align2::RIGHT_BOTTOM).default_pos(CORNER).default_width(WIDTH);
        window.resizable(false).show(ctx, |ui| {
            ui.horizontal_top(|ui| {
                // Spaces, not separators: a separator would stretch the window to its full height.
                ui.vertical(|ui| self.rows(ui));
                ui.add_space(12.0);
                ui.vertical(|ui| self.hold(ui));
                ui.add_space(12.0);
                self.reorder(ui);
            });
        });
    }

    /// The selectable rows.
    fn rows(&mut self, ui: &mut egui::Ui) {
        for i in 0..self.selected.len() {
            let response = ui.selectable_label(self.selected[i], format!("Row {}", i + 1));
            let selected = self.selected[i];
            ui.ctx().accesskit_node_builder(response.id, |node| node.set_selected(selected));
            if !response.clicked() {
                continue;
            }
            let modifiers = ui.input(|input| input.modifiers);
            if modifiers.shift {
                let (from, to) = (self.anchor.min(i), self.anchor.max(i));
                for (row, selected) in self.selected.iter_mut().enumerate() {
                    *selected = (from..=to).contains(&row);
                }
            } else if modifiers.command {
                self.selected[i] = !self.selected[i];
                self.anchor = i;
            } else {
                self.selected = [false; 5];
                self.selected[i] = true;
                self.anchor = i;
            }
        }
    }

    /// "Hold to confirm", with its progress drawn along its bottom while it is held.
    fn hold(&mut self, ui: &mut egui::Ui) {
        let response = ui.button("Hold to confirm");
        let now = ui.input(|input| input.time);
        if response.is_pointer_button_down_on() {
            let since = *self.held_since.get_or_insert(now);
            let progress = ((now - since) / HOLD).min(1.0) as f32;
            let mut bar = response.rect.shrink(2.0);
            bar.set_top(bar.bottom() - 2.0);
            bar.set_width(bar.width() * progress);
            ui.painter().rect_filled(bar, 0.0, ui.visuals().selection.bg_fill);
            if now - since >= HOLD {
                self.confirmed = true;
            } else {
                // No event comes while the button is only held: ask for the frame that sees it.
                ui.ctx().request_repaint();
            }
        } else {
            self.held_since = None;
        }
        if self.confirmed {
            ui.label("Confirmed");
        }
    }

    /// The reorder list: each word's row is drawn where its slide has got to, the dragged word
    /// under the pointer.
    fn reorder(&mut self, ui: &mut egui::Ui) {
        let size = vec2(LIST_WIDTH, PITCH * self.words.len() as f32);
        let (list, _) = ui.allocate_exact_size(size, Sense::hover());
        let pointer = ui.ctx().pointer_interact_pos();
        // The list as drawn: the other words with the gap at its slot, or the words as they are.
        let shown: Vec<&'static str> = match &self.drag {
            Some(drag) => {
                let mut others: Vec<_> =
                    self.words.iter().copied().filter(|w| *w != drag.word).collect();
                others.insert(drag.gap, drag.word);
                others
            }
            None => self.words.clone(),
        };
        // Where each word's row is drawn now (the dragged word's: where its gap is drawn).
        let drawn: Vec<(&'static str, Rect)> = self
            .words
            .iter()
            .map(|&word| {
                let slot = shown.iter().position(|w| *w == word).unwrap_or(0);
                let y = list.top() + PITCH * slot as f32;
                let y = ui.ctx().animate_value_with_time(row_id(word).with("y"), y, SLIDE);
                (word, Rect::from_min_size(pos2(list.left(), y), vec2(LIST_WIDTH, PITCH - 4.0)))
            })
            .collect();

        // Widgets in the words' order, so the tree lists them in it.
        let mut released = false;
        for &(word, rect) in &drawn {
            let dragged = self.drag.as_ref().filter(|d| d.word == word);
            let rect = match (dragged, pointer) {
                (Some(drag), Some(p)) => Rect::from_min_size(p - drag.grab, rect.size()),
                _ => rect,
            };
            let response = ui.interact(rect, row_id(word), Sense::drag());
            response.widget_info(|| WidgetInfo::labeled(Role::ListItem, true, word));
            let fill = if dragged.is_some() {
                ui.visuals().selection.bg_fill
            } else {
                ui.visuals().widgets.inactive.bg_fill
            };
            ui.painter().rect_filled(rect, 3.0, fill);
            let text = ui.visuals().text_color();
            ui.painter().text(
                rect.center(),
                Align2::CENTER_CENTER,
                word,
                egui::FontId::default(),
                text,
            );
            if response.drag_started() {
                let slot = self.words.iter().position(|w| *w == word).unwrap_or(0);
                let origin = ui.input(|input| input.pointer.press_origin());
                let grab = origin.map_or(Vec2::ZERO, |p| p - rect.min);
                self.drag = Some(Drag { word, gap: slot, over: None, grab });
            }
            // Let go (or the drag lost, which egui reports as no drag).
            if self.drag.as_ref().is_some_and(|d| d.word == word) && !response.dragged() {
                released = true;
            }
        }

        let Some(drag) = &mut self.drag else { return };
        if released {
            // Into the gap where it is drawn now.
            let gap =
                drawn.iter().find(|(w, _)| *w == drag.word).map_or(list.top(), |(_, r)| r.top());
            let slot = ((gap - list.top()) / PITCH).round().clamp(0.0, shown.len() as f32 - 1.0);
            let word = drag.word;
            self.words.retain(|w| *w != word);
            self.words.insert(slot as usize, word);
            self.drag = None;
            return;
        }
        // The pointer entering another word's drawn row moves the gap to that row's slot.
        let under = pointer.and_then(|p| {
            drawn.iter().find(|(w, rect)| *w != drag.word && rect.contains(p)).map(|(w, _)| *w)
        });
        if under != drag.over {
            if let Some(word) = under {
                drag.gap = shown.iter().position(|w| *w == word).unwrap_or(drag.gap);
            }
            drag.over = under;
        }
    }
}

/// The id of a word's row, the same whatever its place.
fn row_id(word: &str) -> Id {
    Id::unique(("gestures reorder", word))
}
