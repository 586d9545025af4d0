//! From an action command to the input that carries it out: targets are resolved against the
//! mirror, checked (visible, not zero-size, not disabled, not covered: `aim.rs`) and turned into
//! a [`Plan`] of steps that name no window system (the types are `link`'s: the render side turns
//! each step into a winit event, a key event of the crate's own type, text or an AccessKit
//! `ActionRequest`).
//!
//! Runs on the service thread, when every earlier action has been carried out, so a target is
//! resolved against the tree those actions left.

use std::fmt::Write;
use std::time::Duration;

use accesskit::{Action, ActionData, NodeId, Point as AkPoint, Role, TreeId};
use accesskit_consumer::NodeRef as Node;

use super::aim::{Aim, default_window, failure, live_node};
use super::live::Live;
use super::mirror::Source;
use super::node::num;
use super::refs::Found;
use winit_automation_link::{CaptureTo, Gate, Plan, Stage, Step, Still, TouchPhase};
use winit_automation_protocol::{
    Button, Command, DragMotion, ErrorCode, Failure, Key, KeyChord, Label, Modifiers, NamedKey,
    Point, Press, Target, action_name, quote,
};

/// How many unchanged frames make a tree settled when `--frames` is not given.
pub(crate) const DEFAULT_SETTLE_FRAMES: u32 = 3;

impl Live {
    /// A node for a non-pointer action: resolved, shown and enabled.
    fn node_for(&mut self, target: &Target, action: Action) -> Result<(Found, String), Failure> {
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror.windows[&found.window];
        let node = live_node(w, found, &line)?;
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

    fn action_step(&self, found: Found, action: Action, data: Option<ActionData>) -> Step {
        let w = &self.mirror.windows[&found.window];
        let node = w
            .tree
            .as_ref()
            .and_then(|t| t.state().node_by_id(found.node));
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
        let focus = self.mirror.windows.get(&window).and_then(|w| {
            let tree = w.tree.as_ref()?;
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
            "focus a text field first: focus TARGET, or click it (fill TARGET TEXT does both)",
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
            "focus a text field first (focus TARGET, or click it); a key with ctrl, alt or meta, Tab, Enter, Escape and navigation keys go out without a focus",
        )
    }

    /// `no_focus` when the window's AccessKit tree says nothing has the keyboard focus (see
    /// [`Live::text_focus`]); `what` says what would go wrong.
    fn focus_for(&self, window: u64, what: &str, hint: &str) -> Result<(), Failure> {
        let Some(w) = self.mirror.windows.get(&window) else {
            return Ok(());
        };
        let (Source::AccessKit, Some(tree)) = (w.source, w.tree.as_ref()) else {
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
            .state
            .as_ref()
            .map(|s| format!(" {}", quote(&s.title)))
            .unwrap_or_default();
        Err(failure(
            ErrorCode::NoFocus,
            format!("nothing has the keyboard focus in window {window}{title}, so {what}"),
            hint,
        ))
    }

    /// The stages of a pointer gesture: the move to `aim`, then `steps`. By default in one
    /// stage (the app handles its events in order, so a press lands where the move put the
    /// pointer); with `hover_frame`, `steps` in a stage after the move's. Returns the stages and
    /// the index of the stage that holds `steps`.
    fn after_move(hover_frame: bool, aim: &Aim, steps: Vec<Step>) -> (Vec<Stage>, usize) {
        if hover_frame {
            (vec![vec![move_to(aim)].into(), steps.into()], 1)
        } else {
            let mut one = vec![move_to(aim)];
            one.extend(steps);
            (vec![one.into()], 0)
        }
    }

    /// Plans an action command. `Ok(None)` for a command the app answers itself. `hover_frame`:
    /// pointer gestures move the pointer in a frame of its own first (`Builder::hover_frame`).
    pub(super) fn plan(
        &mut self,
        command: &Command,
        hover_frame: bool,
    ) -> Result<Option<Planned>, Failure> {
        let Some(path) = path_of(command) else {
            return Ok(None);
        };
        // The plan moves a copy of the pointer; the service keeps it once the order goes out.
        let committed = self.pointer.clone();
        let planned = self.plan_verb(command, hover_frame);
        let moved = std::mem::replace(&mut self.pointer, committed);
        let mut plan = planned?;
        let pointer = (moved != self.pointer).then_some(moved);
        let answer = ActionAnswer {
            path,
            scrolled: Vec::new(),
            rest: std::mem::take(&mut plan.summary),
        };
        Ok(Some(Planned {
            plan,
            answer,
            pointer,
        }))
    }

    /// The plan of a verb the plugin carries out, by its function.
    fn plan_verb(&mut self, command: &Command, hover_frame: bool) -> Result<Plan, Failure> {
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
            } => self.plan_stroke(points, *button, *modifiers)?,
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
                let secret = self.secret_text(command);
                self.plan_type(text, secret)?
            }
            Command::Fill { target, text, .. } => {
                let secret = self.secret_text(command);
                self.plan_fill(target, text, secret)?
            }
            Command::Key { chords, .. } => self.plan_keys(chords)?,
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

    /// `click`: the move, then one press and release (two for `--double`; for `--hold`, the
    /// release in a stage of its own once the hold is over), checked as a press; the modifiers
    /// around it.
    fn plan_click(
        &mut self,
        target: &Target,
        (button, press): (Button, Press),
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        self.pointer.may_press(button)?;
        let aim = self.aim(target, true)?;
        let [down, up] = button_tap(button);
        let presses = match press {
            Press::Single => vec![down, up.clone()],
            Press::Double => vec![down.clone(), up.clone(), down, up.clone()],
            Press::Hold(_) => vec![down],
        };
        let mut summary = pointer_summary(&aim);
        let how = match press {
            Press::Single => String::new(),
            Press::Double => " double".to_owned(),
            Press::Hold(ms) => format!(" held {ms}ms"),
        };
        let _ = writeln!(summary, "button {}{how}", button_name(button));
        modifiers_line(&mut summary, modifiers);
        let (mut stages, pressing) = Self::after_move(hover_frame, &aim, presses);
        if let Press::Hold(ms) = press {
            stages.push(Stage {
                gate: Gate::After(Duration::from_millis(ms)),
                steps: vec![up],
            });
        }
        let press = Some(self.press_check(&aim, pressing));
        self.pointer_at(&aim);
        Ok(Plan {
            window: aim.window,
            stages: with_modifiers(stages, modifiers),
            summary,
            press,
        })
    }

    /// `hover`: the move alone.
    fn plan_hover(&mut self, target: &Target) -> Result<Plan, Failure> {
        let aim = self.aim(target, true)?;
        let summary = pointer_summary(&aim);
        self.pointer_at(&aim);
        Ok(unchecked(
            aim.window,
            vec![vec![move_to(&aim)].into()],
            summary,
        ))
    }

    /// `drag`, as a person drags: the move to FROM, a left press, a hold, `steps` moves to TO
    /// (each in a frame of its own, [`DragMotion::STEP_MS`] apart), a dwell until the trees hold
    /// still (at most `dwell`), the release, and a frame for the app to take the drop in before
    /// the answer. Both ends in one window; checked as a press at the start.
    fn plan_drag(
        &mut self,
        (from, to): (&Target, &Target),
        motion: DragMotion,
        modifiers: Modifiers,
    ) -> Result<Plan, Failure> {
        self.pointer.may_press(Button::Left)?;
        let a = self.aim(from, true)?;
        let b = self.aim_end(a.window, to)?;
        let mut summary = pointer_summary(&a);
        let _ = writeln!(summary, "to {},{}", num(b.x), num(b.y));
        if let Some(l) = &b.line {
            let _ = writeln!(summary, "to_target {l}");
        }
        modifiers_line(&mut summary, modifiers);
        let press = Some(self.press_check(&a, 1));
        let [down, up] = button_tap(Button::Left);
        let mut stages: Vec<Stage> = vec![vec![move_to(&a)].into(), vec![down].into()];
        let steps = motion.steps();
        for i in 1..=steps {
            let t = f64::from(i) / f64::from(steps);
            let pause = if i == 1 {
                motion.hold_ms()
            } else {
                DragMotion::STEP_MS
            };
            stages.push(Stage {
                gate: Gate::After(Duration::from_millis(pause)),
                steps: vec![Step::Move {
                    x: a.x + (b.x - a.x) * t,
                    y: a.y + (b.y - a.y) * t,
                }],
            });
        }
        let gate = match motion.dwell_ms() {
            0 => Gate::Frame,
            ms => Gate::Still {
                still: Still::default(),
                at_most: Duration::from_millis(ms),
            },
        };
        stages.push(Stage {
            gate,
            steps: vec![up],
        });
        stages.push(Stage::default());
        self.pointer_at(&b);
        Ok(Plan {
            window: a.window,
            stages: with_modifiers(stages, modifiers),
            summary,
            press,
        })
    }

    /// Where a gesture that started in `window` goes to: a point in that window, or a target
    /// (not checked for cover: what lies on top of a drop target is where a person lets go) in
    /// the same window.
    fn aim_end(&mut self, window: u64, to: &Target) -> Result<Aim, Failure> {
        let b = match to {
            Target::Point(p) => self.aim_point(window, *p)?,
            _ => self.aim(to, false)?,
        };
        if b.window != window {
            return Err(failure(
                ErrorCode::BadArgument,
                "a gesture must stay in the window where it starts".to_owned(),
                "pick targets in one window",
            ));
        }
        Ok(b)
    }

    /// `stroke`: the move to the first point and a press, one move a frame through the others,
    /// and the release at the last in a frame of its own; checked as a press at the first.
    fn plan_stroke(
        &mut self,
        points: &[Target],
        button: Button,
        modifiers: Modifiers,
    ) -> Result<Plan, Failure> {
        let Some((first, rest)) = points.split_first() else {
            return Err(failure(
                ErrorCode::MissingArgument,
                "a stroke needs two points at least".to_owned(),
                "write stroke X,Y X,Y [X,Y...]",
            ));
        };
        self.pointer.may_press(button)?;
        let a = self.aim(first, true)?;
        let [down, up] = button_tap(button);
        let mut stages: Vec<Stage> = vec![vec![move_to(&a), down].into()];
        let mut through = Vec::new();
        let mut last = None;
        for point in rest {
            let b = self.aim_end(a.window, point)?;
            through.push(format!("{},{}", num(b.x), num(b.y)));
            stages.push(Stage {
                gate: Gate::After(Duration::from_millis(DragMotion::STEP_MS)),
                steps: vec![move_to(&b)],
            });
            last = Some(b);
        }
        stages.push(vec![up].into());
        let mut summary = pointer_summary(&a);
        let _ = writeln!(summary, "through {}", through.join(" "));
        let _ = writeln!(summary, "button {}", button_name(button));
        modifiers_line(&mut summary, modifiers);
        let press = Some(self.press_check(&a, 0));
        if let Some(b) = &last {
            self.pointer_at(b);
        }
        Ok(Plan {
            window: a.window,
            stages: with_modifiers(stages, modifiers),
            summary,
            press,
        })
    }

    /// `down`: the move and a press that stays down, checked as a press; the modifiers stay
    /// held until `up`. Refused when the button is down already.
    fn plan_down(
        &mut self,
        target: &Target,
        button: Button,
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        self.pointer.may_press(button)?;
        if let Some(window) = self.pointer.pressed_in() {
            let aim = self.aim_end(window, target)?;
            return self.press_down(aim, button, modifiers, hover_frame);
        }
        let aim = self.aim(target, true)?;
        self.press_down(aim, button, modifiers, hover_frame)
    }

    fn press_down(
        &mut self,
        aim: Aim,
        button: Button,
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        let [down, _] = button_tap(button);
        let mut summary = pointer_summary(&aim);
        let _ = writeln!(summary, "button {} down", button_name(button));
        let held = self.pointer.modifiers;
        let mut steps = Vec::new();
        if !modifiers.is_empty() && modifiers != held {
            let all = held | modifiers;
            modifiers_line(&mut summary, all);
            steps.push(Step::Modifiers(all));
            self.pointer.modifiers = all;
        }
        steps.push(down);
        let (stages, pressing) = Self::after_move(hover_frame, &aim, steps);
        let press = Some(self.press_check(&aim, pressing));
        self.pointer_at(&aim);
        self.pointer.down.push(button);
        Ok(Plan {
            window: aim.window,
            stages,
            summary,
            press,
        })
    }

    /// `move`: `steps` moves from where the pointer is to the target, each in a frame of its
    /// own. With a button down, the target is in that button's window and not checked for cover.
    fn plan_move(&mut self, target: &Target, steps: Option<u32>) -> Result<Plan, Failure> {
        let aim = match self.pointer.pressed_in() {
            Some(window) => self.aim_end(window, target)?,
            None => self.aim(target, true)?,
        };
        let from = self
            .pointer
            .at
            .filter(|(w, _, _)| *w == aim.window)
            .map_or((aim.x, aim.y), |(_, x, y)| (x, y));
        let steps = steps.unwrap_or(1).max(1);
        let mut stages = Vec::new();
        for i in 1..=steps {
            let t = f64::from(i) / f64::from(steps);
            stages.push(Stage {
                gate: if i == 1 {
                    Gate::Frame
                } else {
                    Gate::After(Duration::from_millis(DragMotion::STEP_MS))
                },
                steps: vec![Step::Move {
                    x: from.0 + (aim.x - from.0) * t,
                    y: from.1 + (aim.y - from.1) * t,
                }],
            });
        }
        let mut summary = pointer_summary(&aim);
        let down: Vec<&str> = self.pointer.down.iter().map(|b| button_name(*b)).collect();
        if !down.is_empty() {
            let _ = writeln!(summary, "buttons {} down", down.join(" "));
        }
        self.pointer_at(&aim);
        Ok(unchecked(aim.window, stages, summary))
    }

    /// `up`: the release where the pointer is; the modifiers `down` held are let go in the next
    /// frame once no button is down. Refused when the button is not down.
    fn plan_up(&mut self, button: Button) -> Result<Plan, Failure> {
        self.pointer.may_release(button)?;
        let (window, x, y) = match self.pointer.at {
            Some(at) => at,
            None => (default_window(&self.mirror)?, 0.0, 0.0),
        };
        self.pointer.down.retain(|b| *b != button);
        let [_, up] = button_tap(button);
        let mut stages: Vec<Stage> = vec![vec![up].into()];
        if self.pointer.down.is_empty() && !self.pointer.modifiers.is_empty() {
            self.pointer.modifiers = Modifiers::default();
            stages.push(vec![Step::Modifiers(Modifiers::default())].into());
        }
        let mut summary = String::new();
        let _ = writeln!(summary, "released at {},{}", num(x), num(y));
        let _ = writeln!(summary, "button {}", button_name(button));
        Ok(unchecked(window, stages, summary))
    }

    /// `pinch`: two fingers either side of the target's centre, [`PINCH_SPREAD`] apart each way,
    /// moving over [`PINCH_MOVES`] frames to `scale` times that distance while their centre
    /// moves by `pan`, then lifted.
    fn plan_pinch(
        &mut self,
        target: &Target,
        scale: f64,
        (dx, dy): (f64, f64),
    ) -> Result<Plan, Failure> {
        let aim = self.aim(target, true)?;
        let fingers = |t: f64, phase| {
            let spread = PINCH_SPREAD * (1.0 + (scale - 1.0) * t);
            let (cx, cy) = (aim.x + dx * t, aim.y + dy * t);
            [(1, -spread), (2, spread)]
                .map(|(finger, side)| Step::Touch {
                    finger,
                    phase,
                    x: cx + side,
                    y: cy,
                })
                .to_vec()
        };
        let mut stages: Vec<Stage> = vec![fingers(0.0, TouchPhase::Start).into()];
        for i in 1..=PINCH_MOVES {
            stages.push(Stage {
                gate: Gate::After(Duration::from_millis(DragMotion::STEP_MS)),
                steps: fingers(f64::from(i) / f64::from(PINCH_MOVES), TouchPhase::Move),
            });
        }
        stages.push(fingers(1.0, TouchPhase::End).into());
        let mut summary = pointer_summary(&aim);
        let _ = writeln!(
            summary,
            "fingers {} apart to {} apart",
            num(2.0 * PINCH_SPREAD),
            num(2.0 * PINCH_SPREAD * scale)
        );
        if (dx, dy) != (0.0, 0.0) {
            let _ = writeln!(summary, "pan {},{}", num(dx), num(dy));
        }
        Ok(unchecked(aim.window, stages, summary))
    }

    /// The pointer went to `aim`.
    fn pointer_at(&mut self, aim: &Aim) {
        self.pointer.at = Some((aim.window, aim.x, aim.y));
    }

    /// `scroll`: the move, then one wheel step of `(dx, dy)`; the modifiers around it.
    fn plan_scroll(
        &mut self,
        target: &Target,
        (dx, dy): (f64, f64),
        modifiers: Modifiers,
        hover_frame: bool,
    ) -> Result<Plan, Failure> {
        let aim = self.aim(target, true)?;
        let mut summary = pointer_summary(&aim);
        let _ = writeln!(summary, "wheel {} {}", num(dx), num(dy));
        modifiers_line(&mut summary, modifiers);
        let wheel = vec![Step::Wheel { dx, dy }];
        let stages = Self::after_move(hover_frame, &aim, wheel).0;
        self.pointer_at(&aim);
        Ok(unchecked(
            aim.window,
            with_modifiers(stages, modifiers),
            summary,
        ))
    }

    /// `type`: the text to the default window, refused when nothing has the focus. A secret's
    /// answer says `typed secret`.
    fn plan_type(&mut self, text: &str, secret: bool) -> Result<Plan, Failure> {
        let window = default_window(&self.mirror)?;
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

    /// `key`: each chord pressed and released in turn, in one frame.
    fn plan_keys(&mut self, chords: &[KeyChord]) -> Result<Plan, Failure> {
        let window = default_window(&self.mirror)?;
        self.key_focus(window, chords)?;
        let mut summary = self.focus_line(window);
        let names: Vec<String> = chords.iter().map(ToString::to_string).collect();
        let _ = writeln!(summary, "keys {}", names.join(" "));
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
        self.mirror.windows[&found.window]
            .tree
            .as_ref()
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
        let window = default_window(&self.mirror)?;
        let mut summary = String::new();
        let _ = writeln!(summary, "resize {width} {height}");
        let step = Step::Resize { width, height };
        Ok(unchecked(window, vec![vec![step].into()], summary))
    }

    /// `screenshot`: a capture of the default window, or of the window a crop target is in.
    fn plan_screenshot(&mut self, label: &Label, crop: Option<&Target>) -> Result<Plan, Failure> {
        let (window, crop) = match crop {
            None => (default_window(&self.mirror)?, None),
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
            default_window(&self.mirror).unwrap_or(0),
            vec![vec![Step::Quit].into()],
            "quit\n".to_owned(),
        )
    }
}

/// A planned action: what the render side does, and the answer it gives once done, as a value
/// until the order goes out ([`Planned::into_plan`]).
pub struct Planned {
    /// The plan; its `summary` is empty until [`Planned::into_plan`] writes the answer in.
    pub plan: Plan,
    /// The answer's parts.
    pub answer: ActionAnswer,
    /// The pointer as the plan leaves it, when it moves it or its buttons
    /// ([`Trees::commit_pointer`](super::Trees::commit_pointer) once the order goes out).
    pub pointer: Option<super::pointer::Pointer>,
}

impl Planned {
    /// The plan with its answer written in, as the render side sends it back.
    pub fn into_plan(self) -> Plan {
        Plan {
            summary: self.answer.to_string(),
            ..self.plan
        }
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

/// A button's press and release.
fn button_tap(button: Button) -> [Step; 2] {
    [true, false].map(|pressed| Step::Button { button, pressed })
}

/// A chord's press and release.
fn key_tap(chord: KeyChord) -> [Step; 2] {
    [true, false].map(|pressed| Step::Key { chord, pressed })
}

/// The pointer move to the aimed point.
fn move_to(aim: &Aim) -> Step {
    Step::Move { x: aim.x, y: aim.y }
}

/// The summary's lines for a pointer gesture: the point, the visible share, the target, and the
/// input proxy that takes the press for it.
fn pointer_summary(aim: &Aim) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "at {},{}", num(aim.x), num(aim.y));
    if let Some(percent) = aim.visible {
        let _ = writeln!(out, "visible {percent}%");
    }
    if let Some(line) = &aim.line {
        let _ = writeln!(out, "target {line}");
    }
    if let Some((_, line)) = &aim.via {
        let _ = writeln!(out, "via {line}");
    }
    out
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

/// The `modifiers` line of a gesture that holds some.
fn modifiers_line(summary: &mut String, modifiers: Modifiers) {
    if !modifiers.is_empty() {
        let _ = writeln!(summary, "modifiers {modifiers}");
    }
}

/// A gesture's stages with its modifiers held from its first stage on and let go in a frame of
/// their own after its last, as winit reports a key held around a click (`ModifiersChanged`
/// before the press, again after the release): a toolkit that reads the modifiers of the frame
/// (egui's `InputState::modifiers`) sees them held while the gesture acts.
fn with_modifiers(mut stages: Vec<Stage>, modifiers: Modifiers) -> Vec<Stage> {
    if modifiers.is_empty() {
        return stages;
    }
    if let Some(first) = stages.first_mut() {
        first.steps.insert(0, Step::Modifiers(modifiers));
    }
    stages.push(vec![Step::Modifiers(Modifiers::default())].into());
    stages
}

/// How far each finger of a `pinch` starts from the centre, in logical pixels.
const PINCH_SPREAD: f64 = 40.0;
/// The frames a `pinch`'s fingers take to move.
const PINCH_MOVES: u32 = 8;

pub(super) fn button_name(b: Button) -> &'static str {
    match b {
        Button::Left => "left",
        Button::Right => "right",
        Button::Middle => "middle",
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
