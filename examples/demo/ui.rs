//! The demo's UI and its state: the widgets, their layout, and what pointer, keys and AccessKit
//! actions do to them. Knows no window and no GPU (its tree is in tree.rs, its drawing in draw.rs).

use accesskit::{Action, ActionData, ActionRequest, NodeId};
use winit::dpi::LogicalSize;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey};
use winit_automation::{Input, Request};
use winit_automation_protocol::{ErrorCode, Failure};

use crate::gfx::Rect;

pub const ITEMS: usize = 50;
pub const ITEM_H: f32 = 32.0;

/// The widgets, which are also the AccessKit node ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum W {
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
    pub fn id(self) -> NodeId {
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

    pub fn from_id(id: NodeId) -> Option<W> {
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

pub fn r(x: f32, y: f32, w: f32, h: f32) -> Rect {
    Rect { x, y, w, h }
}

pub fn inside(rect: Rect, (x, y): (f32, f32)) -> bool {
    x >= rect.x && y >= rect.y && x < rect.x + rect.w && y < rect.y + rect.h
}

/// What the plugin's input asks for beyond the UI: only the shell can resize or quit.
pub enum Effect {
    Resize(LogicalSize<f64>),
    Quit,
}

/// The UI: state, layout, input handling, AccessKit tree and draw list. Knows no window or GPU.
pub struct Ui {
    pub name: String,
    /// ctrl+a selected the whole name: the next text replaces it.
    pub name_selected: bool,
    pub subscribe: bool,
    pub volume: f64,
    pub status: String,
    /// How far the list is scrolled, logical pixels.
    pub scroll: f32,
    pub selected: Option<usize>,
    pub dialog: bool,
    pub focus: Option<W>,
    /// Pointer position, logical pixels.
    cursor: (f32, f32),
    pressed: Option<W>,
    dragging_volume: bool,
    /// Logical size of the window.
    pub size: (f32, f32),
    /// Whether the tree changed since it was last sent.
    pub changed: bool,
    /// The Submit button's label (`--submit-label`).
    pub submit_label: String,
}

impl Ui {
    pub fn new(submit_label: &str) -> Ui {
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

    pub fn rect(&self, w: W) -> Rect {
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
                r(list.x, list.y + i as f32 * ITEM_H - self.scroll, list.w, ITEM_H)
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

    pub fn max_scroll(&self) -> f32 {
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
            return [W::Ok, W::Cancel].into_iter().find(|w| inside(self.rect(*w), p));
        }
        let list = self.rect(W::List);
        if inside(list, p) {
            return (0..ITEMS).map(W::Item).find(|w| inside(self.rect(*w), p)).or(Some(W::List));
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
                    if self.name.is_empty() { "nobody" } else { &self.name },
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

    pub fn insert_text(&mut self, text: &str) {
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
    pub fn pointer(&mut self, event: &WindowEvent, scale: f64) {
        match event {
            WindowEvent::CursorMoved { position, .. } => {
                let p = position.to_logical::<f64>(scale);
                self.cursor = (p.x as f32, p.y as f32);
                if self.dragging_volume {
                    self.volume_at(self.cursor.0);
                }
            }
            WindowEvent::CursorLeft { .. } => self.cursor = (-1.0, -1.0),
            WindowEvent::MouseInput { state, button: MouseButton::Left, .. } => {
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

    pub fn key(&mut self, key: &Key, mods: ModifiersState, text: Option<&str>) {
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
    pub fn action(&mut self, request: &ActionRequest) {
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

    /// One input of the plugin's, through the same handlers as the window's (key presses only:
    /// the demo acts on key down); a `Request` the demo cannot carry out is refused.
    pub fn input(&mut self, input: Input, scale: f64) -> Option<Effect> {
        match input {
            Input::Pointer { event, .. } => self.pointer(&event, scale),
            Input::Text { text, .. } => self.insert_text(&text),
            Input::Key { key, .. } if key.is_pressed() => {
                self.key(&key.logical_key(), key.modifiers(), key.text().as_deref())
            }
            Input::Action { request, .. } => self.action(&request),
            Input::Resize { size, .. } => return Some(Effect::Resize(size)),
            Input::Quit => return Some(Effect::Quit),
            Input::Request(request) => unsupported(request),
            _ => {}
        }
        None
    }
}

/// The demo answers every command through the plugin except those it cannot carry out.
fn unsupported(request: Request) {
    let verb = request.command().verb();
    request.reply(Err(Failure::new(
        ErrorCode::Unsupported,
        format!("the demo does not carry out {verb} yet"),
        "see the README for what the demo supports",
    )));
}
