//! A small but real UI on winit + wgpu with the automation plugin: a form (text field, checkbox,
//! slider, buttons), a scrollable list of 50 items and a modal dialog, drawn with the WGSL
//! rounded-rectangle shader in `shaders/ui.wgsl` and glyphon text in a font compiled in.
//!
//! It builds its own AccessKit tree, keeps `accesskit_winit` beside the plugin (the window is
//! created hidden, then the adapter, then it is shown), and takes input from three places through
//! the same handlers: the window, the plugin ([`winit_automation::Input`]) and assistive
//! technologies (AccessKit action requests).
//!
//! ```text
//! cargo run --features automation --example demo -- --dir /tmp/demo-box
//! winit-automation --dir /tmp/demo-box snapshot -i
//! winit-automation --dir /tmp/demo-box click 'role=checkbox name=Subscribe' --settle
//! winit-automation --dir /tmp/demo-box fill role=textbox "Ada Lovelace"
//! ```
#![allow(clippy::print_stderr)]

#[path = "demo/gfx.rs"]
mod gfx;
#[path = "shared/setup.rs"]
mod setup;

use std::sync::Arc;
use std::time::{Duration, Instant};

use accesskit::{Action, ActionData, ActionRequest, Node, NodeId, Role, Toggled, TreeId};
use gfx::{Gfx, Label, Layer, Quad, Rect, Rgba};
use setup::UserEvent;
use winit::application::ApplicationHandler;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit::window::{Window, WindowId};
use winit_automation::{Automation, FrameTarget, Input, Request, WindowState};

const USAGE: &str =
    "usage: demo [--dir DIR] [--continuous] [--headless [--size WxH]] [--submit-label TEXT]

  --dir DIR      the automation drop-box (default: $WINIT_AUTOMATION_DIR or target/winit-automation)
  --continuous   redraw at 60 Hz even when nothing changes (default: only when needed)
  --headless     no window and no display: draw into an offscreen texture, one frame per command
  --size WxH     the headless frame size in pixels (default 800x600)
  --submit-label TEXT  the Submit button's label (default Submit): a changed UI for the tests
                 that replay a recorded script against it";

const ITEMS: usize = 50;
const ITEM_H: f32 = 32.0;

/// The widgets, which are also the AccessKit node ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum W {
    Root,
    Title,
    Name,
    Subscribe,
    Volume,
    Submit,
    Open,
    Status,
    List,
    Item(usize),
    Dialog,
    DialogText,
    Ok,
    Cancel,
}

impl W {
    fn id(self) -> NodeId {
        NodeId(match self {
            W::Root => 1,
            W::Title => 2,
            W::Name => 3,
            W::Subscribe => 4,
            W::Volume => 5,
            W::Submit => 6,
            W::Open => 7,
            W::Status => 8,
            W::List => 9,
            W::Dialog => 10,
            W::DialogText => 11,
            W::Ok => 12,
            W::Cancel => 13,
            W::Item(i) => 100 + i as u64,
        })
    }

    fn from_id(id: NodeId) -> Option<W> {
        let all = [
            W::Root,
            W::Title,
            W::Name,
            W::Subscribe,
            W::Volume,
            W::Submit,
            W::Open,
            W::Status,
            W::List,
            W::Dialog,
            W::DialogText,
            W::Ok,
            W::Cancel,
        ];
        all.into_iter().find(|w| w.id() == id).or_else(|| {
            let i = id.0.checked_sub(100)? as usize;
            (i < ITEMS).then_some(W::Item(i))
        })
    }
}

fn r(x: f32, y: f32, w: f32, h: f32) -> Rect {
    Rect { x, y, w, h }
}

fn inside(rect: Rect, (x, y): (f32, f32)) -> bool {
    x >= rect.x && y >= rect.y && x < rect.x + rect.w && y < rect.y + rect.h
}

/// The UI: state, layout, input handling, AccessKit tree and draw list. Knows no window or GPU.
struct Ui {
    name: String,
    /// ctrl+a selected the whole name: the next text replaces it.
    name_selected: bool,
    subscribe: bool,
    volume: f64,
    status: String,
    /// How far the list is scrolled, logical pixels.
    scroll: f32,
    selected: Option<usize>,
    dialog: bool,
    focus: Option<W>,
    /// Pointer position, logical pixels.
    cursor: (f32, f32),
    pressed: Option<W>,
    dragging_volume: bool,
    /// Logical size of the window.
    size: (f32, f32),
    /// Whether the tree changed since it was last sent.
    changed: bool,
    /// The Submit button's label (`--submit-label`).
    submit_label: String,
}

impl Ui {
    fn new(submit_label: &str) -> Ui {
        Ui {
            submit_label: submit_label.to_owned(),
            name: String::new(),
            name_selected: false,
            subscribe: false,
            volume: 50.0,
            status: "Ready".into(),
            scroll: 0.0,
            selected: None,
            dialog: false,
            focus: None,
            cursor: (-1.0, -1.0),
            pressed: None,
            dragging_volume: false,
            size: (800.0, 600.0),
            changed: true,
        }
    }

    fn rect(&self, w: W) -> Rect {
        let (width, height) = self.size;
        match w {
            W::Root => r(0.0, 0.0, width, height),
            W::Title => r(24.0, 16.0, 300.0, 28.0),
            W::Name => r(120.0, 60.0, 300.0, 32.0),
            W::Subscribe => r(24.0, 112.0, 160.0, 24.0),
            W::Volume => r(120.0, 156.0, 300.0, 24.0),
            W::Submit => r(24.0, 204.0, 120.0, 36.0),
            W::Open => r(160.0, 204.0, 140.0, 36.0),
            W::Status => r(24.0, 260.0, 400.0, 24.0),
            W::List => r(460.0, 60.0, 300.0, 400.0),
            W::Item(i) => {
                let list = self.rect(W::List);
                r(
                    list.x,
                    list.y + i as f32 * ITEM_H - self.scroll,
                    list.w,
                    ITEM_H,
                )
            }
            W::Dialog => r(width / 2.0 - 200.0, height / 2.0 - 100.0, 400.0, 200.0),
            W::DialogText => {
                let d = self.rect(W::Dialog);
                r(d.x + 24.0, d.y + 24.0, 352.0, 28.0)
            }
            W::Ok => {
                let d = self.rect(W::Dialog);
                r(d.x + 24.0, d.y + 130.0, 160.0, 40.0)
            }
            W::Cancel => {
                let d = self.rect(W::Dialog);
                r(d.x + 216.0, d.y + 130.0, 160.0, 40.0)
            }
        }
    }

    fn max_scroll(&self) -> f32 {
        (ITEMS as f32 * ITEM_H - self.rect(W::List).h).max(0.0)
    }

    /// The widgets that take focus, in Tab order; only the dialog's while it is open.
    fn focusables(&self) -> Vec<W> {
        if self.dialog {
            return vec![W::Ok, W::Cancel];
        }
        let mut out = vec![W::Name, W::Subscribe, W::Volume, W::Submit, W::Open];
        out.extend((0..ITEMS).map(W::Item));
        out
    }

    /// The topmost widget at a point; the open dialog blocks everything behind it.
    fn hit(&self, p: (f32, f32)) -> Option<W> {
        if self.dialog {
            return [W::Ok, W::Cancel]
                .into_iter()
                .find(|w| inside(self.rect(*w), p));
        }
        let list = self.rect(W::List);
        if inside(list, p) {
            return (0..ITEMS)
                .map(W::Item)
                .find(|w| inside(self.rect(*w), p))
                .or(Some(W::List));
        }
        [W::Name, W::Subscribe, W::Volume, W::Submit, W::Open]
            .into_iter()
            .find(|w| inside(self.rect(*w), p))
    }

    fn set_focus(&mut self, w: Option<W>) {
        if self.focus != w {
            self.focus = w;
            self.name_selected = false;
            self.changed = true;
        }
    }

    fn set_volume(&mut self, v: f64) {
        let v = (v / 5.0).round().clamp(0.0, 20.0) * 5.0;
        if v != self.volume {
            self.volume = v;
            self.changed = true;
        }
    }

    fn volume_at(&mut self, x: f32) {
        let track = self.rect(W::Volume);
        self.set_volume(f64::from((x - track.x) / track.w * 100.0));
    }

    fn scroll_by(&mut self, dy: f32) {
        let s = (self.scroll + dy).clamp(0.0, self.max_scroll());
        if s != self.scroll {
            self.scroll = s;
            self.changed = true;
        }
    }

    fn scroll_into_view(&mut self, i: usize) {
        let list = self.rect(W::List);
        let top = i as f32 * ITEM_H;
        if top < self.scroll {
            self.scroll_by(top - self.scroll);
        } else if top + ITEM_H > self.scroll + list.h {
            self.scroll_by(top + ITEM_H - list.h - self.scroll);
        }
    }

    /// What a click (or Enter, Space, an AccessKit click) does.
    fn activate(&mut self, w: W) {
        match w {
            W::Subscribe => self.subscribe = !self.subscribe,
            W::Submit => {
                self.status = format!(
                    "Submitted: {} (subscribe {}, volume {})",
                    if self.name.is_empty() {
                        "nobody"
                    } else {
                        &self.name
                    },
                    if self.subscribe { "yes" } else { "no" },
                    self.volume
                )
            }
            W::Open => {
                self.dialog = true;
                self.focus = Some(W::Ok);
            }
            W::Ok | W::Cancel => {
                self.dialog = false;
                self.status = if w == W::Ok { "Confirmed" } else { "Cancelled" }.into();
                self.focus = Some(W::Open);
            }
            W::Item(i) => {
                self.selected = Some(i);
                self.status = format!("Selected Item {:02}", i + 1);
            }
            W::Name => self.focus = Some(W::Name),
            _ => return,
        }
        self.changed = true;
    }

    fn insert_text(&mut self, text: &str) {
        if self.focus != Some(W::Name) {
            return;
        }
        let text: String = text.chars().filter(|c| !c.is_control()).collect();
        if self.name_selected {
            self.name.clear();
            self.name_selected = false;
        }
        self.name.push_str(&text);
        self.changed = true;
    }

    /// Pointer events, in the window's physical pixels.
    fn pointer(&mut self, event: &WindowEvent, scale: f64) {
        match event {
            WindowEvent::CursorMoved { position, .. } => {
                let p = position.to_logical::<f64>(scale);
                self.cursor = (p.x as f32, p.y as f32);
                if self.dragging_volume {
                    self.volume_at(self.cursor.0);
                }
            }
            WindowEvent::CursorLeft { .. } => self.cursor = (-1.0, -1.0),
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                let at = self.hit(self.cursor);
                if *state == ElementState::Pressed {
                    self.pressed = at;
                    if let Some(w) = at.filter(|w| self.focusables().contains(w)) {
                        self.set_focus(Some(w));
                    }
                    if at == Some(W::Volume) {
                        self.dragging_volume = true;
                        self.volume_at(self.cursor.0);
                    }
                } else {
                    self.dragging_volume = false;
                    if let (Some(w), true) = (at, self.pressed == at) {
                        self.activate(w);
                    }
                    self.pressed = None;
                }
            }
            WindowEvent::MouseWheel { delta, .. }
                if !self.dialog && inside(self.rect(W::List), self.cursor) =>
            {
                // winit: positive y moves the content down, showing what is above.
                let dy = match delta {
                    MouseScrollDelta::LineDelta(_, y) => -y * ITEM_H,
                    MouseScrollDelta::PixelDelta(p) => -(p.y / scale) as f32,
                };
                self.scroll_by(dy);
            }
            _ => {}
        }
    }

    fn key(&mut self, key: &Key, mods: ModifiersState, text: Option<&str>) {
        match key {
            Key::Named(NamedKey::Tab) => {
                let order = self.focusables();
                let at = self.focus.and_then(|f| order.iter().position(|w| *w == f));
                let next = match (at, mods.shift_key()) {
                    (None, false) => 0,
                    (None, true) => order.len() - 1,
                    (Some(i), false) => (i + 1) % order.len(),
                    (Some(i), true) => (i + order.len() - 1) % order.len(),
                };
                self.set_focus(Some(order[next]));
                if let Some(W::Item(i)) = self.focus {
                    self.scroll_into_view(i);
                }
                return;
            }
            Key::Named(NamedKey::Escape) if self.dialog => return self.activate(W::Cancel),
            _ => {}
        }
        match (self.focus, key) {
            (Some(W::Name), Key::Named(NamedKey::Backspace)) => {
                if self.name_selected {
                    self.name.clear();
                    self.name_selected = false;
                } else {
                    self.name.pop();
                }
                self.changed = true;
            }
            (Some(W::Name), Key::Character(c)) if mods.control_key() && c.as_str() == "a" => {
                self.name_selected = true;
                self.changed = true;
            }
            (Some(W::Name), _) => {
                if let Some(t) = text.filter(|_| !mods.control_key() && !mods.alt_key()) {
                    self.insert_text(t);
                }
            }
            (Some(W::Volume), Key::Named(NamedKey::ArrowLeft)) => {
                self.set_volume(self.volume - 5.0)
            }
            (Some(W::Volume), Key::Named(NamedKey::ArrowRight)) => {
                self.set_volume(self.volume + 5.0)
            }
            (Some(w), Key::Named(NamedKey::Enter | NamedKey::Space)) => self.activate(w),
            (_, Key::Named(NamedKey::PageDown)) => self.scroll_by(self.rect(W::List).h),
            (_, Key::Named(NamedKey::PageUp)) => self.scroll_by(-self.rect(W::List).h),
            _ => {}
        }
    }

    /// AccessKit action requests, from an assistive technology or the plugin.
    fn action(&mut self, request: &ActionRequest) {
        let Some(w) = W::from_id(request.target_node) else {
            return;
        };
        match (request.action, &request.data) {
            (Action::Click, _) => {
                if self.focusables().contains(&w) {
                    self.set_focus(Some(w));
                }
                self.activate(w);
            }
            (Action::Focus, _) => self.set_focus(Some(w)),
            (Action::Blur, _) => self.set_focus(None),
            (Action::SetValue, Some(ActionData::Value(v))) if w == W::Name => {
                self.name = v.to_string();
                self.changed = true;
            }
            (Action::ReplaceSelectedText, Some(ActionData::Value(v))) if w == W::Name => {
                self.set_focus(Some(W::Name));
                self.insert_text(v);
            }
            (Action::SetValue, Some(ActionData::NumericValue(v))) if w == W::Volume => {
                self.set_volume(*v)
            }
            (Action::Increment, _) if w == W::Volume => self.set_volume(self.volume + 5.0),
            (Action::Decrement, _) if w == W::Volume => self.set_volume(self.volume - 5.0),
            (Action::ScrollDown, _) => self.scroll_by(self.rect(W::List).h),
            (Action::ScrollUp, _) => self.scroll_by(-self.rect(W::List).h),
            (Action::SetScrollOffset, Some(ActionData::SetScrollOffset(p))) => {
                self.scroll_by(p.y as f32 - self.scroll)
            }
            (Action::ScrollIntoView, _) => {
                if let W::Item(i) = w {
                    self.scroll_into_view(i);
                }
            }
            _ => {}
        }
    }

    /// The whole AccessKit tree; bounds in physical pixels, as AccessKit wants them.
    fn tree(&self, scale: f64) -> accesskit::TreeUpdate {
        let bounds = |rect: Rect| {
            let k = scale;
            accesskit::Rect::new(
                f64::from(rect.x) * k,
                f64::from(rect.y) * k,
                f64::from(rect.x + rect.w) * k,
                f64::from(rect.y + rect.h) * k,
            )
        };
        let node = |w: W, role: Role, label: &str| {
            let mut n = Node::new(role);
            if !label.is_empty() {
                n.set_label(label);
            }
            n.set_bounds(bounds(self.rect(w)));
            n
        };
        let clickable = |mut n: Node| {
            n.add_action(Action::Click);
            n.add_action(Action::Focus);
            n
        };
        let mut nodes = Vec::new();
        let mut root = node(W::Root, Role::Window, "winit-automation demo");
        let mut children = vec![
            W::Title.id(),
            W::Name.id(),
            W::Subscribe.id(),
            W::Volume.id(),
            W::Submit.id(),
            W::Open.id(),
            W::Status.id(),
            W::List.id(),
        ];
        if self.dialog {
            children.push(W::Dialog.id());
        }
        root.set_children(children);
        nodes.push((W::Root.id(), root));

        let mut title = node(W::Title, Role::Label, "");
        title.set_value("Sign up");
        nodes.push((W::Title.id(), title));

        let mut name = node(W::Name, Role::TextInput, "Name");
        name.set_value(self.name.clone());
        name.add_action(Action::Focus);
        name.add_action(Action::SetValue);
        name.add_action(Action::ReplaceSelectedText);
        nodes.push((W::Name.id(), name));

        let mut subscribe = clickable(node(W::Subscribe, Role::CheckBox, "Subscribe"));
        subscribe.set_toggled(if self.subscribe {
            Toggled::True
        } else {
            Toggled::False
        });
        nodes.push((W::Subscribe.id(), subscribe));

        let mut volume = node(W::Volume, Role::Slider, "Volume");
        volume.set_numeric_value(self.volume);
        volume.set_min_numeric_value(0.0);
        volume.set_max_numeric_value(100.0);
        volume.set_numeric_value_step(5.0);
        for a in [
            Action::Focus,
            Action::SetValue,
            Action::Increment,
            Action::Decrement,
        ] {
            volume.add_action(a);
        }
        nodes.push((W::Volume.id(), volume));

        nodes.push((
            W::Submit.id(),
            clickable(node(W::Submit, Role::Button, &self.submit_label)),
        ));
        nodes.push((
            W::Open.id(),
            clickable(node(W::Open, Role::Button, "Open dialog")),
        ));

        let mut status = node(W::Status, Role::Label, "Status");
        status.set_value(self.status.clone());
        nodes.push((W::Status.id(), status));

        let mut list = node(W::List, Role::List, "Items");
        list.set_clips_children();
        list.set_scroll_y(f64::from(self.scroll) * scale);
        list.set_scroll_y_min(0.0);
        list.set_scroll_y_max(f64::from(self.max_scroll()) * scale);
        for a in [
            Action::ScrollDown,
            Action::ScrollUp,
            Action::SetScrollOffset,
        ] {
            list.add_action(a);
        }
        list.set_children((0..ITEMS).map(|i| W::Item(i).id()).collect::<Vec<_>>());
        nodes.push((W::List.id(), list));
        for i in 0..ITEMS {
            let mut item = clickable(node(
                W::Item(i),
                Role::ListItem,
                &format!("Item {:02}", i + 1),
            ));
            item.add_action(Action::ScrollIntoView);
            item.set_selected(self.selected == Some(i));
            nodes.push((W::Item(i).id(), item));
        }

        if self.dialog {
            let mut dialog = node(W::Dialog, Role::Dialog, "Confirm");
            dialog.set_modal();
            dialog.set_children(vec![W::DialogText.id(), W::Ok.id(), W::Cancel.id()]);
            nodes.push((W::Dialog.id(), dialog));
            let mut text = node(W::DialogText, Role::Label, "");
            text.set_value("Send the form?");
            nodes.push((W::DialogText.id(), text));
            nodes.push((W::Ok.id(), clickable(node(W::Ok, Role::Button, "OK"))));
            nodes.push((
                W::Cancel.id(),
                clickable(node(W::Cancel, Role::Button, "Cancel")),
            ));
        }
        accesskit::TreeUpdate {
            nodes,
            tree: Some(accesskit::TreeInfo::new(W::Root.id())),
            tree_id: TreeId::ROOT,
            focus: self.focus.map_or(W::Root.id(), W::id),
        }
    }

    /// What to draw: the form and list, then the dialog over a dimmed backdrop.
    fn layers(&self, gfx: &mut Gfx) -> Vec<Layer> {
        const BG: Rgba = Rgba(245, 246, 248, 255);
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
        base.quads
            .push(quad(r(0.0, 0.0, width, height), BG, 0.0, 0.0, BG));
        let t = self.rect(W::Title);
        base.labels.push(label("Sign up", t.x, t.y, 22.0, INK));

        // Text field with its caret.
        let name = self.rect(W::Name);
        base.labels
            .push(label("Name", 24.0, name.y + 6.0, 16.0, INK));
        base.quads
            .push(quad(name, PANEL, 6.0, 1.5, focus_ring(W::Name)));
        if self.name_selected && !self.name.is_empty() {
            let w = gfx.measure(&self.name, 16.0);
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
            let x = name.x + 10.0 + gfx.measure(&self.name, 16.0) + 1.0;
            base.quads
                .push(quad(r(x, name.y + 6.0, 2.0, 20.0), INK, 0.0, 0.0, INK));
        }

        // Checkbox.
        let cb = self.rect(W::Subscribe);
        let boxr = r(cb.x, cb.y + 2.0, 20.0, 20.0);
        if self.subscribe {
            base.quads.push(quad(boxr, ACCENT, 4.0, 0.0, ACCENT));
            base.quads.push(quad(
                r(boxr.x + 6.0, boxr.y + 6.0, 8.0, 8.0),
                PANEL,
                2.0,
                0.0,
                PANEL,
            ));
        } else {
            base.quads
                .push(quad(boxr, PANEL, 4.0, 1.5, focus_ring(W::Subscribe)));
        }
        base.labels
            .push(label("Subscribe", cb.x + 30.0, cb.y + 2.0, 16.0, INK));

        // Slider.
        let s = self.rect(W::Volume);
        base.labels
            .push(label("Volume", 24.0, s.y + 2.0, 16.0, INK));
        base.quads
            .push(quad(r(s.x, s.y + 9.0, s.w, 6.0), LINE, 3.0, 0.0, LINE));
        let filled = s.w * (self.volume / 100.0) as f32;
        base.quads.push(quad(
            r(s.x, s.y + 9.0, filled, 6.0),
            ACCENT,
            3.0,
            0.0,
            ACCENT,
        ));
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
            let (fill, ink) = if primary {
                (ACCENT, PANEL)
            } else {
                (PANEL, INK)
            };
            base.quads.push(quad(b, fill, 8.0, 1.5, focus_ring(w)));
            let tw = gfx.measure(text, 16.0);
            base.labels
                .push(label(text, b.x + (b.w - tw) / 2.0, b.y + 8.0, 16.0, ink));
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
            base.quads.push(Quad {
                clip: Some(list),
                ..quad(it, fill, 0.0, 0.0, fill)
            });
            base.labels.push(Label {
                clip: Some(list),
                ..label(
                    &format!("Item {:02}", i + 1),
                    it.x + 12.0,
                    it.y + 6.0,
                    16.0,
                    if self.focus == Some(W::Item(i)) {
                        ACCENT
                    } else {
                        INK
                    },
                )
            });
        }
        // A scroll bar.
        let max = self.max_scroll();
        if max > 0.0 {
            let h = list.h * list.h / (list.h + max);
            let y = list.y + (list.h - h) * self.scroll / max;
            base.quads.push(quad(
                r(list.x + list.w - 6.0, y, 4.0, h),
                DIM,
                2.0,
                0.0,
                DIM,
            ));
        }

        let mut layers = vec![base];
        if self.dialog {
            let mut top = Layer::default();
            top.quads.push(quad(
                r(0.0, 0.0, width, height),
                Rgba(15, 23, 42, 110),
                0.0,
                0.0,
                INK,
            ));
            let d = self.rect(W::Dialog);
            top.quads.push(quad(d, PANEL, 12.0, 1.0, LINE));
            let dt = self.rect(W::DialogText);
            top.labels.push(label("Confirm", dt.x, dt.y, 20.0, INK));
            top.labels
                .push(label("Send the form?", dt.x, dt.y + 40.0, 16.0, DIM));
            for (w, text) in [(W::Ok, "OK"), (W::Cancel, "Cancel")] {
                let b = self.rect(w);
                let fill = if w == W::Ok { ACCENT } else { PANEL };
                let ink = if w == W::Ok { PANEL } else { INK };
                top.quads.push(quad(b, fill, 8.0, 1.5, focus_ring(w)));
                let tw = gfx.measure(text, 16.0);
                top.labels
                    .push(label(text, b.x + (b.w - tw) / 2.0, b.y + 10.0, 16.0, ink));
            }
            layers.push(top);
        }
        layers
    }
}

struct Gpu {
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    /// The surface texture itself when it can be copied from, else an intermediate one blitted to
    /// it: screenshots work on every backend.
    target: FrameTarget,
    gfx: Gfx,
}

struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    accesskit: accesskit_winit::Adapter,
}

struct App {
    automation: Automation,
    proxy: EventLoopProxy<UserEvent>,
    continuous: bool,
    ui: Ui,
    modifiers: ModifiersState,
    running: Option<Running>,
    next_frame: Instant,
}

impl App {
    fn start_gpu(&self, window: Arc<Window>) -> Gpu {
        let (surface, adapter, device, queue) =
            setup::gpu("demo", &self.automation, Some(window.clone()));
        let surface = surface.expect("a surface for the window");
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .expect("the surface works with the adapter");
        let caps = surface.get_capabilities(&adapter);
        if let Some(srgb) = caps.formats.iter().find(|f| f.is_srgb()) {
            config.format = *srgb;
        }
        let target = FrameTarget::new(&device, &mut config, &caps);
        eprintln!("demo: capture path {}", target.path().as_str());
        surface.configure(&device, &config);
        self.automation.surface(window.id(), &config);
        let gfx = Gfx::new(&device, &queue, config.format);
        Gpu {
            surface,
            device,
            queue,
            config,
            target,
            gfx,
        }
    }

    /// One frame: the plugin's input, the tree, `publish` (the answers go out before any GPU
    /// work), then drawing and `end_frame`.
    fn frame(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let window = running.window.clone();
        let scale = window.scale_factor();
        // Drawing continuously, the swapchain image comes first: with FIFO presentation the wait
        // for it is where a frame blocks, so input taken after it is shown in this frame, not
        // the next. Drawing on demand, nothing is queued for presentation, so the input goes
        // first and is answered without waiting for the image.
        let mut texture = if self.continuous {
            acquire(&mut running.gpu)
        } else {
            None
        };
        for input in self.automation.begin_frame() {
            match input {
                Input::Pointer { event, .. } => self.ui.pointer(&event, scale),
                Input::Text { text, .. } => self.ui.insert_text(&text),
                // Presses only: the demo acts on key down, as it does for the window's keys.
                Input::Key { key, .. } if key.is_pressed() => {
                    self.ui
                        .key(&key.logical_key(), key.modifiers(), key.text().as_deref());
                }
                Input::Action { request, .. } => self.ui.action(&request),
                Input::Resize { size, .. } => {
                    let _ = window.request_inner_size(size);
                }
                Input::Quit => event_loop.exit(),
                Input::Request(request) => unsupported(request),
                _ => {}
            }
        }
        if std::mem::take(&mut self.ui.changed) {
            let update = self.ui.tree(scale);
            running.accesskit.update_if_active(|| update.clone());
            self.automation.tree_update(window.id(), update);
            // Keep drawing until the changed state is on screen.
            window.request_redraw();
        }
        // The tree is complete: the answers of this frame's actions are written now.
        self.automation.publish();
        let gpu = &mut running.gpu;
        if !self.continuous {
            texture = acquire(gpu);
        }
        if let Some(texture) = texture {
            let frame = gpu.target.texture(&texture.texture);
            let view = frame.create_view(&Default::default());
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            let layers = self.ui.layers(&mut gpu.gfx);
            gpu.gfx.render(
                &gpu.device,
                &gpu.queue,
                &mut encoder,
                &view,
                (gpu.config.width, gpu.config.height),
                scale as f32,
                Rgba(245, 246, 248, 255),
                &layers,
            );
            self.automation
                .capture(window.id(), &gpu.device, &mut encoder, frame);
            gpu.target
                .finish(&gpu.device, &mut encoder, &texture.texture);
            gpu.queue.submit([encoder.finish()]);
            window.pre_present_notify();
            gpu.queue.present(texture);
        }
        self.automation.end_frame();
    }
}

/// The swapchain image to draw into, or `None` for this frame (the surface is reconfigured when
/// it was outdated or lost).
fn acquire(gpu: &mut Gpu) -> Option<wgpu::SurfaceTexture> {
    match gpu.surface.get_current_texture() {
        wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => {
            Some(t)
        }
        wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
            gpu.surface.configure(&gpu.device, &gpu.config);
            None
        }
        _ => None,
    }
}

/// The demo answers every command through the plugin except those it cannot carry out.
fn unsupported(request: Request) {
    let verb = request.command().verb();
    request.reply(Err(winit_automation::protocol::Failure::new(
        winit_automation::protocol::ErrorCode::Unsupported,
        format!("the demo does not carry out {verb} yet"),
        "see the README for what the demo supports",
    )));
}

impl ApplicationHandler<UserEvent> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        // Hidden first: accesskit_winit's adapter must be created before the window is shown.
        let attributes = Window::default_attributes()
            .with_title("winit-automation demo")
            .with_inner_size(LogicalSize::new(800.0, 600.0))
            .with_visible(false);
        let window = Arc::new(event_loop.create_window(attributes).expect("a window"));
        let accesskit = accesskit_winit::Adapter::with_event_loop_proxy(
            event_loop,
            &window,
            self.proxy.clone(),
        );
        window.set_visible(true);
        self.automation.track_window(&window);
        let gpu = self.start_gpu(window.clone());
        let size = window.inner_size().to_logical::<f32>(window.scale_factor());
        self.ui.size = (size.width, size.height);
        self.ui.changed = true;
        window.request_redraw();
        self.running = Some(Running {
            window,
            gpu,
            accesskit,
        });
    }

    fn user_event(&mut self, _: &ActiveEventLoop, event: UserEvent) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        match event {
            UserEvent::Wake => {}
            UserEvent::AccessKit(e) => match e.window_event {
                accesskit_winit::WindowEvent::InitialTreeRequested => self.ui.changed = true,
                accesskit_winit::WindowEvent::ActionRequested(request) => self.ui.action(&request),
                accesskit_winit::WindowEvent::AccessibilityDeactivated => {}
            },
        }
        running.window.request_redraw();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        self.automation.window_event(id, &event);
        let Some(running) = self.running.as_mut() else {
            return;
        };
        running.accesskit.process_event(&running.window, &event);
        let scale = running.window.scale_factor();
        match &event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                let gpu = &mut running.gpu;
                gpu.config.width = size.width.max(1);
                gpu.config.height = size.height.max(1);
                gpu.surface.configure(&gpu.device, &gpu.config);
                gpu.target.resize(&gpu.device, &gpu.config);
                self.automation.surface(id, &gpu.config);
                let logical = size.to_logical::<f32>(scale);
                self.ui.size = (logical.width, logical.height);
                self.ui.changed = true;
            }
            WindowEvent::ModifiersChanged(m) => self.modifiers = m.state(),
            WindowEvent::KeyboardInput { event, .. } if event.state.is_pressed() => {
                let text = event.text.as_ref().map(|t| t.to_string());
                self.ui
                    .key(&event.logical_key, self.modifiers, text.as_deref());
            }
            WindowEvent::CursorMoved { .. }
            | WindowEvent::CursorLeft { .. }
            | WindowEvent::MouseInput { .. }
            | WindowEvent::MouseWheel { .. } => self.ui.pointer(&event, scale),
            WindowEvent::RedrawRequested => {
                self.frame(event_loop);
                return;
            }
            _ => return,
        }
        running.window.request_redraw();
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if !self.continuous {
            event_loop.set_control_flow(ControlFlow::Wait);
            return;
        }
        let now = Instant::now();
        if now >= self.next_frame {
            self.next_frame = now + Duration::from_micros(16_667);
            if let Some(r) = &self.running {
                r.window.request_redraw();
            }
        }
        event_loop.set_control_flow(ControlFlow::WaitUntil(self.next_frame));
    }
}

/// The demo with no window and no display: the same UI drawn into an offscreen texture. A frame
/// runs whenever the plugin brings work (and once more after a change, so a settle sees the tree
/// stay put); it draws only when a screenshot waits for it (`Automation::wants_capture`).
fn run_headless(dir: Option<String>, (width, height): (u32, u32), submit_label: &str) {
    let (wake_tx, wake) = crossbeam_channel::bounded::<()>(1);
    let automation = setup::automation("demo", dir, true, move || {
        let _ = wake_tx.try_send(());
    });
    let (_, _, device, queue) = setup::gpu("demo", &automation, None);
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let make_texture = |w: u32, h: u32| setup::offscreen(&device, (w, h), format);
    let mut texture = make_texture(width, height);
    let mut gfx = Gfx::new(&device, &queue, format);
    let window = WindowId::from(1);
    let state = |w: u32, h: u32| WindowState {
        title: "winit-automation demo (headless)".into(),
        width: f64::from(w),
        height: f64::from(h),
        scale_factor: 1.0,
        focused: true,
    };
    automation.window_state(window, state(width, height));
    let mut ui = Ui::new(submit_label);
    ui.size = (width as f32, height as f32);
    ui.focus = None;
    let mut redraw = true;
    loop {
        if !redraw {
            // Idle until work arrives; the wait only bounds how long a lost wake-up could cost.
            // The plugin holds the waker (without the feature, setup::automation exits headless).
            let _ = wake.recv_timeout(Duration::from_millis(500));
        }
        let mut quit = false;
        for input in automation.begin_frame() {
            match input {
                Input::Pointer { event, .. } => ui.pointer(&event, 1.0),
                Input::Text { text, .. } => ui.insert_text(&text),
                Input::Key { key, .. } if key.is_pressed() => {
                    ui.key(&key.logical_key(), key.modifiers(), key.text().as_deref())
                }
                Input::Action { request, .. } => ui.action(&request),
                Input::Resize { size, .. } => {
                    let (w, h) = (size.width.round() as u32, size.height.round() as u32);
                    texture = make_texture(w, h);
                    ui.size = (w as f32, h as f32);
                    ui.changed = true;
                    automation.window_state(window, state(w, h));
                }
                Input::Quit => quit = true,
                Input::Request(request) => unsupported(request),
                _ => {}
            }
        }
        redraw = std::mem::take(&mut ui.changed);
        if redraw {
            automation.tree_update(window, ui.tree(1.0));
        }
        // The tree is complete: the answers of this frame's actions are written now.
        automation.publish();
        // Nobody sees a headless frame: it is drawn only when a screenshot waits for it.
        if automation.wants_capture(window) {
            let view = texture.create_view(&Default::default());
            let mut encoder = device.create_command_encoder(&Default::default());
            let layers = ui.layers(&mut gfx);
            gfx.render(
                &device,
                &queue,
                &mut encoder,
                &view,
                (texture.width(), texture.height()),
                1.0,
                Rgba(245, 246, 248, 255),
                &layers,
            );
            automation.capture(window, &device, &mut encoder, &texture);
            queue.submit([encoder.finish()]);
        }
        automation.end_frame();
        if quit {
            break;
        }
    }
}

fn main() {
    let mut dir = None;
    let mut continuous = false;
    let mut headless = false;
    let mut size = (800, 600);
    let mut submit_label = "Submit".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dir" => match args.next() {
                Some(d) => dir = Some(d),
                None => fail("--dir needs a directory"),
            },
            "--continuous" => continuous = true,
            "--headless" => headless = true,
            "--submit-label" => match args.next() {
                Some(l) if !l.is_empty() => submit_label = l,
                _ => fail("--submit-label needs the button's text"),
            },
            "--size" => match setup::parse_size(args.next()) {
                Some(s) => size = s,
                None => fail("--size needs WIDTHxHEIGHT, e.g. --size 1920x1080"),
            },
            "--help" | "-h" => {
                eprintln!("{USAGE}");
                return;
            }
            other => fail(&format!("unknown argument {other:?}")),
        }
    }
    if headless {
        run_headless(dir, size, &submit_label);
        return;
    }
    let event_loop = EventLoop::<UserEvent>::with_user_event()
        .build()
        .unwrap_or_else(|e| {
            eprintln!("demo: cannot open a window ({e}); is DISPLAY set? (try xvfb-run -a)");
            std::process::exit(1);
        });
    let proxy = event_loop.create_proxy();
    let wake = proxy.clone();
    let automation = setup::automation("demo", dir, false, move || {
        let _ = wake.send_event(UserEvent::Wake);
    });
    let mut app = App {
        automation,
        proxy,
        continuous,
        ui: Ui::new(&submit_label),
        modifiers: ModifiersState::empty(),
        running: None,
        next_frame: Instant::now(),
    };
    if let Err(e) = event_loop.run_app(&mut app) {
        eprintln!("demo: the event loop failed: {e}");
        std::process::exit(1);
    }
}

fn fail(why: &str) -> ! {
    eprintln!("demo: {why}\n{USAGE}");
    std::process::exit(2);
}
