//! The demo's draw list: the form and the list, then the dialog over a dimmed backdrop, as
//! layers of rounded rectangles and labels for gfx.rs.

use crate::gfx::{Fonts, Label, Layer, Quad, Rect, Rgba};
use crate::ui::{ITEMS, Ui, W, r};

/// The page's colour, and the frame's clear colour.
pub const BG: Rgba = Rgba(245, 246, 248, 255);

impl Ui {
    /// What to draw: the form and list, then the dialog over a dimmed backdrop.
    pub fn layers(&self, fonts: &mut Fonts) -> Vec<Layer> {
        const PANEL: Rgba = Rgba(255, 255, 255, 255);
        const INK: Rgba = Rgba(30, 34, 40, 255);
        const DIM: Rgba = Rgba(120, 126, 136, 255);
        const ACCENT: Rgba = Rgba(37, 99, 235, 255);
        const LINE: Rgba = Rgba(200, 205, 212, 255);
        let focus_ring = |w: W| if self.focus == Some(w) { ACCENT } else { LINE };
        let quad = |rect: Rect, fill: Rgba, radius: f32, border: f32, border_color: Rgba| Quad {
            rect,
            fill,
            radius,
            border,
            border_color,
            clip: None,
        };
        let label = |text: &str, x: f32, y: f32, size: f32, color: Rgba| Label {
            text: text.to_owned(),
            x,
            y,
            size,
            color,
            clip: None,
        };
        let mut base = Layer::default();
        let (width, height) = self.size;
        // The page is the frame's clear colour (`BG`): no quad is drawn for it.
        let t = self.rect(W::Title);
        base.labels.push(label("Sign up", t.x, t.y, 22.0, INK));

        // Text field with its caret.
        let name = self.rect(W::Name);
        base.labels.push(label("Name", 24.0, name.y + 6.0, 16.0, INK));
        base.quads.push(quad(name, PANEL, 6.0, 1.5, focus_ring(W::Name)));
        if self.name_selected && !self.name.is_empty() {
            let w = fonts.width(&self.name, 16.0);
            base.quads.push(quad(
                r(name.x + 10.0, name.y + 6.0, w, 20.0),
                Rgba(191, 219, 254, 255),
                2.0,
                0.0,
                ACCENT,
            ));
        }
        base.labels.push(Label {
            clip: Some(name),
            ..label(&self.name, name.x + 10.0, name.y + 6.0, 16.0, INK)
        });
        if self.focus == Some(W::Name) {
            let x = name.x + 10.0 + fonts.width(&self.name, 16.0) + 1.0;
            base.quads.push(quad(r(x, name.y + 6.0, 2.0, 20.0), INK, 0.0, 0.0, INK));
        }

        // Checkbox.
        let cb = self.rect(W::Subscribe);
        let boxr = r(cb.x, cb.y + 2.0, 20.0, 20.0);
        if self.subscribe {
            base.quads.push(quad(boxr, ACCENT, 4.0, 0.0, ACCENT));
            base.quads.push(quad(r(boxr.x + 6.0, boxr.y + 6.0, 8.0, 8.0), PANEL, 2.0, 0.0, PANEL));
        } else {
            base.quads.push(quad(boxr, PANEL, 4.0, 1.5, focus_ring(W::Subscribe)));
        }
        base.labels.push(label("Subscribe", cb.x + 30.0, cb.y + 2.0, 16.0, INK));

        // Slider.
        let s = self.rect(W::Volume);
        base.labels.push(label("Volume", 24.0, s.y + 2.0, 16.0, INK));
        base.quads.push(quad(r(s.x, s.y + 9.0, s.w, 6.0), LINE, 3.0, 0.0, LINE));
        let filled = s.w * (self.volume / 100.0) as f32;
        base.quads.push(quad(r(s.x, s.y + 9.0, filled, 6.0), ACCENT, 3.0, 0.0, ACCENT));
        base.quads.push(quad(
            r(s.x + filled - 10.0, s.y + 2.0, 20.0, 20.0),
            PANEL,
            10.0,
            2.0,
            ACCENT,
        ));
        base.labels.push(label(
            &format!("{}", self.volume),
            s.x + s.w + 12.0,
            s.y + 2.0,
            16.0,
            DIM,
        ));

        // Buttons.
        let submit = self.submit_label.clone();
        for (w, text, primary) in [(W::Submit, &*submit, true), (W::Open, "Open dialog", false)] {
            let b = self.rect(w);
            let (fill, ink) = if primary { (ACCENT, PANEL) } else { (PANEL, INK) };
            base.quads.push(quad(b, fill, 8.0, 1.5, focus_ring(w)));
            let tw = fonts.width(text, 16.0);
            base.labels.push(label(text, b.x + (b.w - tw) / 2.0, b.y + 8.0, 16.0, ink));
        }
        let st = self.rect(W::Status);
        base.labels.push(label(&self.status, st.x, st.y, 16.0, DIM));

        // The list, clipped to its box.
        let list = self.rect(W::List);
        base.quads.push(quad(list, PANEL, 8.0, 1.0, LINE));
        for i in 0..ITEMS {
            let it = self.rect(W::Item(i));
            if it.y + it.h < list.y || it.y > list.y + list.h {
                continue;
            }
            let selected = self.selected == Some(i);
            let fill = if selected {
                Rgba(219, 234, 254, 255)
            } else if i % 2 == 0 {
                PANEL
            } else {
                Rgba(249, 250, 251, 255)
            };
            base.quads.push(Quad { clip: Some(list), ..quad(it, fill, 0.0, 0.0, fill) });
            base.labels.push(Label {
                clip: Some(list),
                ..label(
                    &format!("Item {:02}", i + 1),
                    it.x + 12.0,
                    it.y + 6.0,
                    16.0,
                    if self.focus == Some(W::Item(i)) { ACCENT } else { INK },
                )
            });
        }
        // A scroll bar.
        let max = self.max_scroll();
        if max > 0.0 {
            let h = list.h * list.h / (list.h + max);
            let y = list.y + (list.h - h) * self.scroll / max;
            base.quads.push(quad(r(list.x + list.w - 6.0, y, 4.0, h), DIM, 2.0, 0.0, DIM));
        }

        let mut layers = vec![base];
        if self.dialog {
            let mut top = Layer::default();
            top.quads.push(quad(r(0.0, 0.0, width, height), Rgba(15, 23, 42, 110), 0.0, 0.0, INK));
            let d = self.rect(W::Dialog);
            top.quads.push(quad(d, PANEL, 12.0, 1.0, LINE));
            let dt = self.rect(W::DialogText);
            top.labels.push(label("Confirm", dt.x, dt.y, 20.0, INK));
            top.labels.push(label("Send the form?", dt.x, dt.y + 40.0, 16.0, DIM));
            for (w, text) in [(W::Ok, "OK"), (W::Cancel, "Cancel")] {
                let b = self.rect(w);
                let fill = if w == W::Ok { ACCENT } else { PANEL };
                let ink = if w == W::Ok { PANEL } else { INK };
                top.quads.push(quad(b, fill, 8.0, 1.5, focus_ring(w)));
                let tw = fonts.width(text, 16.0);
                top.labels.push(label(text, b.x + (b.w - tw) / 2.0, b.y + 10.0, 16.0, ink));
            }
            layers.push(top);
        }
        layers
    }
}
