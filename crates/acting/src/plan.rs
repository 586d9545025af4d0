//! From an action command to the input that carries it out: targets are resolved against the
//! mirror, checked (visible, not zero-size, not disabled, not covered: `aim.rs`) and turned into
//! a [`Plan`] of steps that name no window system (the types are `link`'s: the render side turns
//! each step into a winit event, a key event of the crate's own type, text or an AccessKit
//! `ActionRequest`).
//!
//! Runs on the service thread, when every earlier action has been carried out, so a target is
//! resolved against the tree those actions left.

use std::fmt::Write;

use accesskit::{Action, ActionData, NodeId, Point as AkPoint, Role, TreeId};
use accesskit_consumer::NodeRef as Node;

use crate::aim::failure;
use crate::planner::Planner;
use crate::pointer::{Dragged, Pointer};
use crate::toolkit::Toolkit;
use winit_automation_link::wiring::Plan;
use winit_automation_link::{CaptureTo, Stage, Step};
use winit_automation_protocol::{
    Command, ErrorCode, Failure, Key, KeyChord, Label, NamedKey, Point, Target, action_name, quote,
};
use winit_automation_tree::{Found, Source};

mod pointer;

impl Planner<'_> {
    /// A node for a non-pointer action: resolved, shown and enabled.
    fn node_for(&mut self, target: &Target, action: Action) -> Result<(Found, String), Failure> {
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror().windows()[&found.window];
        let node = w.live_node(found, &line)?;
        let always = matches!(
            action,
            Action::ScrollIntoView | Action::ShowTooltip | Action::HideTooltip | Action::Blur
        );
        if !always && node.is_disabled() {
            return Err(failure(
                ErrorCode::Disabled,
                format!("{line} is disabled"),
                "wait for it to be enabled before acting on it",
            ));
        }
        if !node.supports_action(action, &|_: &Node| {
            accesskit_consumer::FilterResult::Include
        }) {
            let listed: Vec<&str> = winit_automation_protocol::action_names()
                .filter(|n| {
                    winit_automation_protocol::parse_action(n)
                        .is_some_and(|a| node.data().supports_action(a))
                })
                .collect();
            return Err(failure(
                ErrorCode::ActionNotSupported,
                format!(
                    "{line} does not support {}; it supports: {}",
                    action_name(action),
                    if listed.is_empty() {
                        "no actions".to_owned()
                    } else {
                        listed.join(" ")
                    }
                ),
                match action {
                    Action::Focus => "click it instead, if clicking is what you mean",
                    _ => "pick an action the node lists, or use click/type/key",
                },
            ));
        }
        Ok((found, line))
    }

    pub fn action_step(&self, found: Found, action: Action, data: Option<ActionData>) -> Step {
        let w = &self.mirror().windows()[&found.window];
        let node = w.tree().and_then(|t| t.state().node_by_id(found.node));
        let (node_id, tree) = node.map_or((NodeId(0), TreeId::ROOT), |n| n.locate());
        Step::Action {
            node: node_id,
            tree,
            action,
            data,
            widget: node.and_then(|n| n.author_id().map(str::to_owned)),
        }
    }

    fn focus_line(&mut self, window: u64) -> String {
        let focus = self.mirror().windows().get(&window).and_then(|w| {
            let tree = w.tree()?;
            let f = tree.state().focus()?;
            Some(Found {
                window,
                node: f.id(),
            })
        });
        match focus {
            Some(f) => format!("focus {}\n", self.node_line(f)),
            None => "focus none\n".to_owned(),
        }
    }

    /// Refuses `type` when the window's AccessKit tree says that nothing has the keyboard focus:
    /// the tree's focus is its root, the root has children (the tree describes the UI, not only
    /// the window), no active descendant, and is not itself a text input. A window with no tree, a
    /// rejected tree, widget records (which may leave the focus out) or only a root is never
    /// refused: there the plugin cannot tell where text goes, and the app is trusted with it.
    fn text_focus(&self, window: u64) -> Result<(), Failure> {
        self.focus_for(
            window,
            "the text would go nowhere",
            "focus a text field first: click it, or focus TARGET (fill TARGET TEXT does both)",
        )
    }

    /// Refuses `key` when every chord only types or deletes text (a character or Space with no
    /// ctrl, alt or meta; Backspace; Delete) and the tree says nothing has the keyboard focus, as
    /// for `type`. Any other chord goes out without a focus: Tab moves the focus in, Enter and
    /// Escape act on the window, shortcuts and navigation keys need no focused node.
    fn key_focus(&self, window: u64, chords: &[KeyChord]) -> Result<(), Failure> {
        let edits_text = |c: &KeyChord| {
            let m = c.modifiers;
            !m.ctrl
                && !m.alt
                && !m.meta
                && matches!(
                    c.key,
                    Key::Char(_)
                        | Key::Named(NamedKey::Space | NamedKey::Backspace | NamedKey::Delete)
                )
        };
        if chords.is_empty() || !chords.iter().all(edits_text) {
            return Ok(());
        }
        let names: Vec<String> = chords.iter().map(ToString::to_string).collect();
        self.focus_for(
            window,
            &format!("{} would edit no text", names.join(" ")),
            "focus a text field first (click it, or focus TARGET); a key with ctrl, alt or meta, Tab, Enter, Escape and navigation keys go out without a focus",
        )
    }

    /// `no_focus` when the window's AccessKit tree says nothing has the keyboard focus (see
    /// `text_focus`); `what` says what would go wrong.
    fn focus_for(&self, window: u64, what: &str, hint: &str) -> Result<(), Failure> {
        let Some(w) = self.mirror().windows().get(&window) else {
            return Ok(());
        };
        let (Source::AccessKit, Some(tree)) = (w.source(), w.tree()) else {
            return Ok(());
        };
        let state = tree.state();
        let focus = state.focus_in_tree();
        let nothing = focus.is_root()
            && focus.children().next().is_some()
            && focus.active_descendant().is_none()
            && !focus.is_text_input()
            && focus.role() != Role::Terminal;
        if !nothing {
            return Ok(());
        }
        let title = w
            .state()
            .as_ref()
            .map(|s| format!(" {}", quote(&s.title)))
            .unwrap_or_default();
        Err(failure(
            ErrorCode::NoFocus,
            format!("nothing has the keyboard focus in window {window}{title}, so {what}"),
            hint,
        ))
    }

    /// Plans an action command for an app whose toolkit does what `toolkit` says. `Ok(None)` for
    /// a command the app answers itself.
    pub fn plan(
        &mut self,
        command: &Command,
        toolkit: Toolkit,
    ) -> Result<Option<Planned>, Failure> {
        let Some(path) = path_of(command) else {
            return Ok(None);
        };
        // The planner's pointer is a copy of the one the gestures keep; they keep the moved one
        // once the order goes out (`Gestures::sent`).
        let before = self.pointer.clone();
        let mut plan = self.plan_verb(command, toolkit)?;
        let pointer = (self.pointer != before).then(|| std::mem::take(&mut self.pointer));
        // The node it acts on, for the tree to remember once the order goes out (a point names a
        // place, not a node).
        let target = command
            .action_targets()
            .find(|t| !matches!(t, Target::Point(_)))
            .and_then(|t| self.resolve(t).ok());
        let answer = ActionAnswer {
            path,
            scrolled: Vec::new(),
            rest: std::mem::take(&mut plan.summary),
        };
        Ok(Some(Planned {
            plan,
            answer,
            moved: Moved {
                pointer,
                dragged: self.dragged.take(),
                target,
            },
        }))
    }

    /// The plan of a verb the plugin carries out, by its function.
    fn plan_verb(&mut self, command: &Command, toolkit: Toolkit) -> Result<Plan, Failure> {
        let hover_frame = toolkit.hover_frame;
        Ok(match command {
            Command::Click {
                target,
                button,
                press,
                modifiers,
                ..
            } => self.plan_click(target, (*button, *press), *modifiers, hover_frame)?,
            Command::Hover { target, .. } => self.plan_hover(target)?,
            Command::Drag {
                from,
                to,
                motion,
                modifiers,
                ..
            } => self.plan_drag((from, to), *motion, *modifiers)?,
            Command::Scroll {
                target,
                dx,
                dy,
                modifiers,
                ..
            } => self.plan_scroll(target, (*dx, *dy), *modifiers, hover_frame)?,
            Command::Stroke {
                points,
                button,
                modifiers,
                ..
            } => self.plan_stroke(points, (*button, *modifiers), hover_frame)?,
            Command::Down {
                target,
                button,
                modifiers,
                ..
            } => self.plan_down(target, *button, *modifiers, hover_frame)?,
            Command::Move { target, steps, .. } => self.plan_move(target, *steps)?,
            Command::Up { button, .. } => self.plan_up(*button)?,
            Command::Pinch {
                target, scale, pan, ..
            } => self.plan_pinch(target, *scale, pan.map_or((0.0, 0.0), |p| (p.x, p.y)))?,
            Command::Type { text, .. } => {
                let secret = self.secret_text(command) != Some(false);
                self.plan_type(text, secret)?
            }
            Command::Fill { target, text, .. } => {
                let secret = self.secret_text(command) != Some(false);
                self.plan_fill(target, text, secret)?
            }
            Command::Key { chords, .. } => self.plan_keys(chords, toolkit.keys_without_focus)?,
            Command::Action {
                target,
                action,
                value,
                ..
            } => self.plan_action(target, *action, value.as_deref())?,
            Command::Focus { target, .. } => self.plan_focus(target)?,
            Command::Resize { width, height, .. } => self.plan_resize(*width, *height)?,
            Command::Screenshot { label, crop, .. } => {
                self.plan_screenshot(label, crop.as_ref())?
            }
            Command::Quit => self.plan_quit(),
            other => unreachable!("{} has a path but no plan", other.verb()),
        })
    }

    /// `type`: the text to the default window, refused when nothing has the focus. A secret's
    /// answer says `typed secret`.
    fn plan_type(&mut self, text: &str, secret: bool) -> Result<Plan, Failure> {
        let window = self.mirror().default_window()?;
        self.text_focus(window)?;
        let mut summary = self.focus_line(window);
        typed_line(&mut summary, text, secret);
        Ok(unchecked(
            window,
            vec![vec![Step::Text(text.to_owned())].into()],
            summary,
        ))
    }

    /// `fill`: focus the node (an AccessKit action), then select all and type over it. A
    /// secret's answer says `typed secret`.
    fn plan_fill(&mut self, target: &Target, text: &str, secret: bool) -> Result<Plan, Failure> {
        let (found, line) = self.node_for(target, Action::Focus)?;
        let select_all = KeyChord::parse("ctrl+a").expect("a valid chord");
        let mut summary = String::new();
        let _ = writeln!(summary, "target {line}");
        typed_line(&mut summary, text, secret);
        let focus = self.action_step(found, Action::Focus, None);
        let mut typing = key_tap(select_all).to_vec();
        typing.push(Step::Text(text.to_owned()));
        Ok(unchecked(
            found.window,
            vec![vec![focus].into(), typing.into()],
            summary,
        ))
    }

    /// `key`: each chord pressed and released in turn, in one frame. `without_focus`: the app
    /// reads keys with nothing focused (`Toolkit::keys_without_focus`), so what would be refused
    /// `no_focus` goes out, and the answer says so.
    fn plan_keys(&mut self, chords: &[KeyChord], without_focus: bool) -> Result<Plan, Failure> {
        let window = self.mirror().default_window()?;
        let unfocused = match self.key_focus(window, chords) {
            Ok(()) => false,
            Err(f) if without_focus && f.code == ErrorCode::NoFocus => true,
            Err(f) => return Err(f),
        };
        let mut summary = self.focus_line(window);
        let names: Vec<String> = chords.iter().map(ToString::to_string).collect();
        let _ = writeln!(summary, "keys {}", names.join(" "));
        if unfocused {
            summary.push_str("no focus: sent to the app\n");
        }
        let steps: Vec<Step> = chords.iter().flat_map(|c| key_tap(*c)).collect();
        Ok(unchecked(window, vec![steps.into()], summary))
    }

    /// `action`: one AccessKit action request, its VALUE read as the node's kind asks.
    fn plan_action(
        &mut self,
        target: &Target,
        action: Action,
        value: Option<&str>,
    ) -> Result<Plan, Failure> {
        let (found, line) = self.node_for(target, action)?;
        let data = action_data(action, value, self.holds_number(found))?;
        let mut summary = String::new();
        let _ = writeln!(summary, "action {}\ntarget {line}", action_name(action));
        let step = self.action_step(found, action, data);
        Ok(unchecked(found.window, vec![vec![step].into()], summary))
    }

    /// Whether the node holds a number (a value, or a slider's kind of role).
    fn holds_number(&self, found: Found) -> bool {
        self.mirror().windows()[&found.window]
            .tree()
            .and_then(|t| t.state().node_by_id(found.node))
            .is_some_and(|n| {
                n.numeric_value().is_some()
                    || matches!(
                        n.role(),
                        Role::Slider | Role::SpinButton | Role::ProgressIndicator | Role::ScrollBar
                    )
            })
    }

    /// `focus`: the AccessKit focus action.
    fn plan_focus(&mut self, target: &Target) -> Result<Plan, Failure> {
        let (found, line) = self.node_for(target, Action::Focus)?;
        let mut summary = String::new();
        let _ = writeln!(summary, "action focus\ntarget {line}");
        let step = self.action_step(found, Action::Focus, None);
        Ok(unchecked(found.window, vec![vec![step].into()], summary))
    }

    /// `resize`: the default window's new inner size.
    fn plan_resize(&mut self, width: u32, height: u32) -> Result<Plan, Failure> {
        let window = self.mirror().default_window()?;
        let mut summary = String::new();
        let _ = writeln!(summary, "resize {width} {height}");
        let step = Step::Resize { width, height };
        Ok(unchecked(window, vec![vec![step].into()], summary))
    }

    /// `screenshot`: a capture of the default window, or of the window a crop target is in.
    fn plan_screenshot(&mut self, label: &Label, crop: Option<&Target>) -> Result<Plan, Failure> {
        let (window, crop) = match crop {
            None => (self.mirror().default_window()?, None),
            Some(target) => {
                let (window, r) = self.visible_rect(target)?;
                (window, Some(r))
            }
        };
        let step = Step::Capture {
            to: CaptureTo::File(label.clone()),
            crop,
        };
        Ok(unchecked(window, vec![vec![step].into()], String::new()))
    }

    /// `quit`: to the default window, or to window 0 when none is known.
    fn plan_quit(&self) -> Plan {
        unchecked(
            self.mirror().default_window().unwrap_or(0),
            vec![vec![Step::Quit].into()],
            "quit\n".to_owned(),
        )
    }
}

/// A planned action: what the render side does, the answer it gives once done, and what it does to
/// the gestures once its order goes out; a value until then ([`Planned::into_order`]).
pub struct Planned {
    /// The plan; its `summary` is empty until [`Planned::into_order`] writes the answer in.
    plan: Plan,
    /// The answer's parts.
    answer: ActionAnswer,
    /// What the order does to the gestures.
    moved: Moved,
}

/// What an order does to the gestures once it goes out: the pointer as its plan leaves it, when
/// it moves it or its buttons, and the node a drag takes hold of. Only
/// [`Gestures::sent`](crate::Gestures::sent) reads them; and the node the order acts on
/// ([`Moved::target`]).
#[derive(Default)]
pub struct Moved {
    pub(crate) pointer: Option<Pointer>,
    pub(crate) dragged: Option<Dragged>,
    pub(crate) target: Option<Found>,
}

impl Moved {
    /// The node the order acts on: its first target given as a ref or a selector, as it resolved
    /// when planned (`None` for points, and for verbs with no target).
    pub fn target(&self) -> Option<Found> {
        self.target
    }
}

impl Planned {
    /// A plan that moves no pointer, answered with its `path` line alone (the clock's).
    pub fn new(plan: Plan, path: &'static str) -> Planned {
        Planned {
            plan,
            answer: ActionAnswer {
                path,
                scrolled: Vec::new(),
                rest: String::new(),
            },
            moved: Moved::default(),
        }
    }

    /// The window the plan acts in.
    pub fn window(&self) -> u64 {
        self.plan.window
    }

    /// The answer's parts, as the plan has them.
    pub fn answer(&self) -> &ActionAnswer {
        &self.answer
    }

    /// The plan with its answer written in, `scrolled` the lines that say what scrolling its
    /// target in did, and what the order does to the gestures.
    pub fn into_order(mut self, scrolled: Vec<String>) -> (Plan, Moved) {
        self.answer.scrolled = scrolled;
        let plan = Plan {
            summary: self.answer.to_string(),
            ..self.plan
        };
        (plan, self.moved)
    }
}

/// The body of an action's answer (docs/protocol.md section 4.6): its `path` line (how the input
/// reaches the app), the lines saying what scrolling its target in did, then what it aimed at and
/// did.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionAnswer {
    /// How the input reaches the app: `pointer`, `text`, `key`, `action`, ...
    pub path: &'static str,
    /// What each scroll step did: `scrolled @e5 scrollview "Files" by 0,228`.
    pub scrolled: Vec<String>,
    /// Where it aimed and what it did, one line each, each with its newline.
    pub rest: String,
}

impl std::fmt::Display for ActionAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "path {}", self.path)?;
        for line in &self.scrolled {
            writeln!(f, "{line}")?;
        }
        f.write_str(&self.rest)
    }
}

/// The `path` of the verbs the plugin carries out; `None` for the others.
fn path_of(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::Click { .. }
        | Command::Hover { .. }
        | Command::Drag { .. }
        | Command::Scroll { .. }
        | Command::Stroke { .. }
        | Command::Down { .. }
        | Command::Move { .. }
        | Command::Up { .. } => "pointer",
        Command::Pinch { .. } => "touch",
        Command::Type { .. } => "text",
        Command::Fill { .. } => "focus+select+text",
        Command::Key { .. } => "key",
        Command::Action { .. } | Command::Focus { .. } => "action",
        Command::Resize { .. } | Command::Quit => "window",
        Command::Screenshot { .. } => "capture",
        Command::Clock(_) => "clock",
        _ => return None,
    })
}

/// A plan with no press to verify.
fn unchecked(window: u64, stages: Vec<Stage>, summary: String) -> Plan {
    Plan {
        window,
        stages,
        summary,
        press: None,
    }
}

/// A chord's press and release.
pub fn key_tap(chord: KeyChord) -> [Step; 2] {
    [true, false].map(|pressed| Step::Key { chord, pressed })
}

/// The `typed` line: the text, or `typed secret` for a secret (a fixed word: not even its length
/// is told).
fn typed_line(summary: &mut String, text: &str, secret: bool) {
    if secret {
        summary.push_str("typed secret\n");
    } else {
        let _ = writeln!(summary, "typed {}", quote(text));
    }
}

/// The data an action's VALUE becomes.
/// `numeric`: the node holds a number (a slider, a spin button), so a numeric `set_value` is sent as
/// AccessKit's numeric value; a text field gets the text as it was written.
fn action_data(
    action: Action,
    value: Option<&str>,
    numeric: bool,
) -> Result<Option<ActionData>, Failure> {
    let bad = |why: &str, hint: &str| Err(failure(ErrorCode::BadArgument, why.to_owned(), hint));
    let name = action_name(action);
    match (action, value) {
        (Action::SetValue, None) | (Action::ReplaceSelectedText, None) => bad(
            &format!("{name} needs a VALUE"),
            "write action TARGET set_value VALUE",
        ),
        (Action::SetValue, Some(v)) => Ok(Some(match v.parse::<f64>() {
            Ok(n) if n.is_finite() && numeric => ActionData::NumericValue(n),
            _ => ActionData::Value(v.into()),
        })),
        (Action::ReplaceSelectedText, Some(v)) => Ok(Some(ActionData::Value(v.into()))),
        (Action::CustomAction, Some(v)) => match v.parse::<i32>() {
            Ok(n) => Ok(Some(ActionData::CustomAction(n))),
            Err(_) => bad(
                &format!("custom_action takes a whole number, not {}", quote(v)),
                "write action TARGET custom_action N",
            ),
        },
        (Action::CustomAction, None) => bad(
            "custom_action needs the action's number",
            "write action TARGET custom_action N",
        ),
        (Action::ScrollToPoint | Action::SetScrollOffset, Some(v)) => match Point::parse(v) {
            Some(p) => Ok(Some(if action == Action::ScrollToPoint {
                ActionData::ScrollToPoint(AkPoint::new(p.x, p.y))
            } else {
                ActionData::SetScrollOffset(AkPoint::new(p.x, p.y))
            })),
            None => bad(
                &format!("{name} takes a point X,Y, not {}", quote(v)),
                "write e.g. action TARGET set_scroll_offset 0,120",
            ),
        },
        (Action::ScrollToPoint | Action::SetScrollOffset, None) => bad(
            &format!("{name} needs a point X,Y"),
            "write e.g. action TARGET set_scroll_offset 0,120",
        ),
        (_, Some(v)) => bad(
            &format!("{name} takes no value, but {} was given", quote(v)),
            "drop the value; only set_value, replace_selected_text, custom_action, scroll_to_point and set_scroll_offset take one",
        ),
        (_, None) => Ok(None),
    }
}
