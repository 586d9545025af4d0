//! A small game with winit-automation in one line: a menu (a Play button and a volume slider
//! from bevy_ui_widgets) and a game scene whose player the arrow keys (or WASD) move, and where Enter rolls
//! a ball that moves with Bevy's `Time` (so the virtual clock moves it); two fingers pinch the
//! player larger or smaller. Run it with the
//! plugin on: `cargo run -p bevy_winit_automation --features automation --example game`, then
//! drive it with `winit-automation snapshot -i`, `click`, `key ArrowRight`, `screenshot`. With
//! `--headless --size 640x480` it opens no window and needs no window system: Bevy draws into an
//! image, which the plugin reads.

use std::time::Duration;

use bevy::app::ScheduleRunnerPlugin;
use bevy::camera::RenderTarget;
use bevy::input_focus::tab_navigation::TabIndex;
use bevy::prelude::*;
use bevy::render::render_resource::{TextureFormat, TextureUsages};
use bevy::ui::prelude::AccessibleLabel;
use bevy::ui_widgets::{
    Activate, Button as PlayButton, Slider, SliderPrecision, SliderRange, SliderThumb, SliderValue,
    observe, slider_self_update,
};
use bevy::window::PrimaryWindow;
use bevy::winit::WinitPlugin;
use bevy_winit_automation::{Automated, AutomationPlugin, Headless};

#[derive(States, Default, Debug, Clone, PartialEq, Eq, Hash)]
enum Screen {
    #[default]
    Menu,
    Game,
}

/// The player: a square the arrow keys (or W, A, S, D) move by one step a press.
#[derive(Component)]
struct Player;

/// How far a key press moves the player, in world units (pixels with the 2D camera).
const STEP: f32 = 40.0;

/// The ball Enter rolls: it moves right with time, until it reaches [`BALL_END`].
#[derive(Component)]
struct Ball;

/// The ball's speed, in world units a second, and where it starts and stops.
const BALL_SPEED: f32 = 100.0;
const BALL_START: Vec2 = Vec2::new(-280.0, 180.0);
const BALL_END: f32 = 280.0;

fn main() {
    let headless = headless_size();
    let size = headless.unwrap_or(UVec2::new(640, 480));
    let window = Window {
        title: "Bevy game".into(),
        resolution: (size.x, size.y).into(),
        ..default()
    };
    let mut app = App::new();
    let plugins = DefaultPlugins.set(WindowPlugin {
        primary_window: Some(window),
        ..default()
    });
    match headless {
        // No window system: a loop runs the frames instead of winit; the window entity stays
        // (it is the drop-box's window) and the camera draws into an image (`camera`).
        Some(size) => app
            .add_plugins(plugins.disable::<WinitPlugin>())
            .add_plugins(ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(
                1.0 / 60.0,
            )))
            .insert_resource(HeadlessSize(size)),
        None => app.add_plugins(plugins),
    };
    // Behind the app's feature: automation = ["bevy_winit_automation/automation"]
    app.add_plugins(AutomationPlugin::default());
    app.init_state::<Screen>()
        .add_systems(Startup, camera)
        .add_systems(OnEnter(Screen::Menu), menu)
        .add_systems(OnEnter(Screen::Game), game)
        .add_systems(Update, thumb)
        .add_systems(
            Update,
            (walk, throw, roll, pinch).run_if(in_state(Screen::Game)),
        )
        .run();
}

/// The image size of `--headless --size WxH` (the harness's `Spawn::headless`; 640x480 without
/// `--size`), or `None` for a window.
fn headless_size() -> Option<UVec2> {
    let args: Vec<String> = std::env::args().collect();
    if !args.iter().any(|a| a == "--headless") {
        return None;
    }
    let size = args
        .iter()
        .position(|a| a == "--size")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.split_once('x'))
        .and_then(|(w, h)| Some(UVec2::new(w.parse().ok()?, h.parse().ok()?)));
    Some(size.unwrap_or(UVec2::new(640, 480)))
}

/// The headless image's size.
#[derive(Resource)]
struct HeadlessSize(UVec2);

/// The 2D camera: on the window, or, headless, on an image the size of the window, which the
/// plugin is told of (`Headless` on the window): it points the pointer at it and reads it back.
fn camera(
    mut commands: Commands,
    headless: Option<Res<HeadlessSize>>,
    mut images: ResMut<Assets<Image>>,
    window: Single<Entity, With<PrimaryWindow>>,
) {
    let Some(size) = headless else {
        commands.spawn(Camera2d);
        return;
    };
    let (w, h) = (size.0.x, size.0.y);
    let mut image = Image::new_target_texture(w, h, TextureFormat::Rgba8UnormSrgb, None);
    // Screenshots copy it out.
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    let image = images.add(image);
    // The UI's default camera is one on the primary window unless told otherwise.
    commands.spawn((
        Camera2d,
        RenderTarget::Image(image.clone().into()),
        IsDefaultUiCamera,
    ));
    commands.entity(*window).insert(Headless(image));
}

fn menu(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Menu),
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: px(24),
            ..default()
        },
        children![
            (Text::new("Bevy game"), TextFont::from_font_size(40.0)),
            (
                PlayButton,
                Node {
                    padding: UiRect::axes(px(32), px(12)),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.2, 0.4, 0.8)),
                observe(|_: On<Activate>, mut next: ResMut<NextState<Screen>>| {
                    next.set(Screen::Game);
                }),
                children![Text::new("Play")],
            ),
            (Text::new("Volume")),
            volume(),
        ],
    ));
}

/// A volume slider from bevy_ui_widgets: a rail and a thumb that follows the value.
fn volume() -> impl Bundle {
    (
        Slider::default(),
        SliderValue(50.0),
        SliderRange::new(0.0, 100.0),
        SliderPrecision(0),
        AccessibleLabel::new("Volume"),
        TabIndex(0),
        observe(slider_self_update),
        Node {
            width: px(240),
            height: px(16),
            ..default()
        },
        BackgroundColor(Color::srgb(0.3, 0.3, 0.3)),
        children![(
            // The thumb's room: the rail less the thumb's width.
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(16),
                top: px(0),
                bottom: px(0),
                ..default()
            },
            children![(
                SliderThumb,
                Node {
                    position_type: PositionType::Absolute,
                    width: px(16),
                    height: px(16),
                    ..default()
                },
                BackgroundColor(Color::WHITE),
            )],
        )],
    )
}

/// The thumb sits where the value is.
fn thumb(
    sliders: Query<(&SliderValue, &SliderRange), Changed<SliderValue>>,
    mut thumbs: Query<(&mut Node, &ChildOf), With<SliderThumb>>,
    parents: Query<&ChildOf>,
) {
    for (mut node, room) in &mut thumbs {
        let Ok(slider) = parents.get(room.parent()) else {
            continue;
        };
        if let Ok((value, range)) = sliders.get(slider.parent()) {
            node.left = percent(range.thumb_position(value.0) * 100.0);
        }
    }
}

fn game(mut commands: Commands) {
    commands.spawn((
        DespawnOnExit(Screen::Game),
        Text::new("Arrow keys or WASD move the player"),
        Node {
            margin: UiRect::all(px(12)),
            ..default()
        },
    ));
    commands.spawn((
        DespawnOnExit(Screen::Game),
        Player,
        Automated,
        Name::new("Player"),
        Sprite::from_color(Color::srgb(0.9, 0.6, 0.1), Vec2::splat(48.0)),
    ));
}

fn walk(keys: Res<ButtonInput<KeyCode>>, mut player: Single<&mut Transform, With<Player>>) {
    for (key, step) in [
        (KeyCode::ArrowLeft, Vec3::NEG_X),
        (KeyCode::ArrowRight, Vec3::X),
        (KeyCode::ArrowUp, Vec3::Y),
        (KeyCode::ArrowDown, Vec3::NEG_Y),
        (KeyCode::KeyA, Vec3::NEG_X),
        (KeyCode::KeyD, Vec3::X),
        (KeyCode::KeyW, Vec3::Y),
        (KeyCode::KeyS, Vec3::NEG_Y),
    ] {
        if keys.just_pressed(key) {
            player.translation += step * STEP;
        }
    }
}

/// Enter rolls a ball from the top left (one at a time).
fn throw(keys: Res<ButtonInput<KeyCode>>, balls: Query<(), With<Ball>>, mut commands: Commands) {
    if keys.just_pressed(KeyCode::Enter) && balls.is_empty() {
        commands.spawn((
            DespawnOnExit(Screen::Game),
            Ball,
            Automated,
            Name::new("Ball"),
            Sprite::from_color(Color::srgb(0.2, 0.8, 0.3), Vec2::splat(24.0)),
            Transform::from_translation(BALL_START.extend(1.0)),
        ));
    }
}

/// Two fingers on the screen scale the player by how much farther apart they moved this frame.
fn pinch(touches: Res<Touches>, mut player: Single<&mut Transform, With<Player>>) {
    let fingers: Vec<&bevy::input::touch::Touch> = touches.iter().collect();
    if let [a, b] = fingers[..] {
        let before = a.previous_position().distance(b.previous_position());
        if before > 0.0 {
            player.scale *= a.position().distance(b.position()) / before;
        }
    }
}

/// The ball moves with the frame's time: on the virtual clock, exactly as far as the clock moves.
fn roll(time: Res<Time>, mut balls: Query<&mut Transform, With<Ball>>) {
    for mut ball in &mut balls {
        ball.translation.x = (ball.translation.x + BALL_SPEED * time.delta_secs()).min(BALL_END);
    }
}
