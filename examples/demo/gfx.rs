//! The demo's renderer: instanced rounded rectangles (`shaders/ui.wgsl`) and text through glyphon,
//! drawn in layers into one render pass.
//!
//! Everything the app hands in is in logical pixels and sRGB bytes; this module converts to
//! physical pixels (`logical * scale`) and to the target's colour encoding. The font is compiled in
//! (from `epaint_default_fonts`), so nothing depends on the fonts installed on the machine.

#![allow(dead_code)]

use std::ops::Range;
use std::sync::Arc;

use glyphon::{
    Attrs, Buffer, Cache, Color, ColorMode, Family, FontSystem, Metrics, Resolution, Shaping,
    SwashCache, TextArea, TextAtlas, TextBounds, TextRenderer, Viewport, fontdb,
};

/// Colours are sRGB bytes with straight alpha, as a designer writes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

/// An axis-aligned rectangle in logical pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width.
    pub w: f32,
    /// Height.
    pub h: f32,
}

/// A filled rectangle with rounded corners and an optional border drawn inside its edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// Where it is, in logical pixels.
    pub rect: Rect,
    /// The fill colour.
    pub fill: Rgba,
    /// The corner radius in logical pixels (clamped to half the shorter side).
    pub radius: f32,
    /// The border width in logical pixels; 0 for none.
    pub border: f32,
    /// The border colour (unused when `border` is 0).
    pub border_color: Rgba,
    /// Pixels outside this rectangle (logical pixels) are not drawn; `None` for no clip.
    pub clip: Option<Rect>,
}

/// One line of text.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The text (one line; it is not wrapped).
    pub text: String,
    /// Left edge of the text, in logical pixels.
    pub x: f32,
    /// Top of the line box, in logical pixels.
    pub y: f32,
    /// The font size in logical pixels.
    pub size: f32,
    /// The text colour.
    pub color: Rgba,
    /// Pixels outside this rectangle (logical pixels) are not drawn; `None` for no clip.
    pub clip: Option<Rect>,
}

/// Drawn in order: a layer's quads, then its labels, then the next layer (a dialog is a later layer).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Layer {
    /// The rectangles, drawn in order.
    pub quads: Vec<Quad>,
    /// The labels, drawn over this layer's rectangles.
    pub labels: Vec<Label>,
}

/// Line height as a multiple of the font size.
const LINE_HEIGHT: f32 = 1.25;

/// The instance data of one rectangle, as `shaders/ui.wgsl` reads it (all physical pixels).
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct QuadInstance {
    rect: [f32; 4],
    fill: [f32; 4],
    border_color: [f32; 4],
    clip: [f32; 4],
    /// Corner radius, border width.
    shape: [f32; 2],
}

impl QuadInstance {
    const ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
        0 => Float32x4, 1 => Float32x4, 2 => Float32x4, 3 => Float32x4, 4 => Float32x2
    ];
}

/// A label's shaped text, kept from frame to frame and reshaped only when its text or size changes.
struct LabelBuffer {
    buffer: Buffer,
    text: String,
    size: f32,
}

/// The renderer. Create it once per device and target format; it keeps its GPU buffers, glyph
/// atlas and shaped text across frames.
pub struct Gfx {
    srgb: bool,
    pipeline: wgpu::RenderPipeline,
    globals: wgpu::Buffer,
    globals_bind_group: wgpu::BindGroup,
    /// The instances of every layer, back to back; grown (never shrunk) as needed.
    instances: wgpu::Buffer,
    instance_capacity: usize,
    instance_data: Vec<QuadInstance>,
    /// Per layer, its range in `instances`.
    quad_ranges: Vec<Range<u32>>,

    fonts: Fonts,
    swash_cache: SwashCache,
    viewport: Viewport,
    atlas: TextAtlas,
    /// One per layer (glyphon's prepare overwrites a renderer's vertices), reused across frames.
    text_renderers: Vec<TextRenderer>,
    /// One per label (all layers, in order), reused across frames.
    label_buffers: Vec<LabelBuffer>,
}

/// The compiled-in fonts, which shape the labels and measure text for layout. A thread that lays
/// out the UI while another draws it (the windowed demo) keeps its own.
pub struct Fonts {
    system: FontSystem,
    /// Scratch buffer for `width`.
    scratch: Buffer,
}

impl Fonts {
    pub fn new() -> Fonts {
        let mut system = embedded_font_system();
        let scratch = Buffer::new(&mut system, Metrics::new(16.0, 16.0 * LINE_HEIGHT));
        Fonts { system, scratch }
    }

    /// Width in logical pixels of `text` at `size` (for caret placement and layout).
    pub fn width(&mut self, text: &str, size: f32) -> f32 {
        let size = clamp_size(size);
        let buffer = &mut self.scratch;
        buffer.set_metrics(Metrics::new(size, size * LINE_HEIGHT));
        buffer.set_size(None, None);
        buffer.set_text(text, &text_attrs(), Shaping::Advanced, None);
        buffer.shape_until_scroll(&mut self.system, false);
        line_width(buffer)
    }
}

impl Gfx {
    /// Creates the renderer for targets of `format`.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, format: wgpu::TextureFormat) -> Gfx {
        let srgb = format.is_srgb();

        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ui quads"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/ui.wgsl").into()),
        });
        let globals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("ui globals"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ui globals"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let globals_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("ui globals"),
            layout: &globals_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: globals.as_entire_binding() }],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("ui quads"),
            bind_group_layouts: &[Some(&globals_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui quads"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<QuadInstance>() as wgpu::BufferAddress,
                    step_mode: wgpu::VertexStepMode::Instance,
                    attributes: &QuadInstance::ATTRIBUTES,
                })],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });

        let instance_capacity = 256;
        let instances = create_instance_buffer(device, instance_capacity);

        let cache = Cache::new(device);
        let viewport = Viewport::new(device, &cache);
        // `Accurate` converts text colours from sRGB to linear in glyphon's shader, which is right
        // for an sRGB target (the hardware encodes back); `Web` passes them through, which is right
        // for a plain unorm target. Either way the bytes written match the bytes asked for.
        let color_mode = if srgb { ColorMode::Accurate } else { ColorMode::Web };
        let atlas = TextAtlas::with_color_mode(device, queue, &cache, format, color_mode);

        Gfx {
            srgb,
            pipeline,
            globals,
            globals_bind_group,
            instances,
            instance_capacity,
            instance_data: Vec::new(),
            quad_ranges: Vec::new(),
            fonts: Fonts::new(),
            swash_cache: SwashCache::new(),
            viewport,
            atlas,
            text_renderers: Vec::new(),
            label_buffers: Vec::new(),
        }
    }

    /// The fonts it shapes labels with, which measure text too.
    pub fn fonts(&mut self) -> &mut Fonts {
        &mut self.fonts
    }

    /// Clears `target` to `clear` and draws the layers. `size` is the target's size in physical pixels,
    /// `scale` the scale factor (physical per logical).
    #[allow(clippy::too_many_arguments)]
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: (u32, u32),
        scale: f32,
        clear: Rgba,
        layers: &[Layer],
    ) {
        let (width, height) = (size.0.max(1), size.1.max(1));
        let viewport_rect = [0.0, 0.0, width as f32, height as f32];

        // Quads: every layer's instances into one buffer, remembering each layer's range.
        self.instance_data.clear();
        self.quad_ranges.clear();
        for layer in layers {
            let start = self.instance_data.len() as u32;
            for quad in &layer.quads {
                let rect = physical(quad.rect, scale);
                if rect[2] <= 0.0 || rect[3] <= 0.0 {
                    continue;
                }
                let clip = quad.clip.map_or(viewport_rect, |c| physical(c, scale));
                if clip[2] <= 0.0 || clip[3] <= 0.0 {
                    continue;
                }
                self.instance_data.push(QuadInstance {
                    rect,
                    fill: self.shader_color(quad.fill),
                    border_color: self.shader_color(quad.border_color),
                    clip,
                    shape: [quad.radius.max(0.0) * scale, quad.border.max(0.0) * scale],
                });
            }
            self.quad_ranges.push(start..self.instance_data.len() as u32);
        }
        if self.instance_data.len() > self.instance_capacity {
            self.instance_capacity = self.instance_data.len().next_power_of_two();
            self.instances = create_instance_buffer(device, self.instance_capacity);
        }
        if !self.instance_data.is_empty() {
            queue.write_buffer(&self.instances, 0, bytemuck::cast_slice(&self.instance_data));
        }
        let globals = [width as f32, height as f32, 0.0, 0.0];
        queue.write_buffer(&self.globals, 0, bytemuck::cast_slice(&globals));

        // Text: shape what changed, then prepare one renderer per layer.
        let label_count: usize = layers.iter().map(|l| l.labels.len()).sum();
        while self.label_buffers.len() < label_count {
            let buffer =
                Buffer::new(&mut self.fonts.system, Metrics::new(16.0, 16.0 * LINE_HEIGHT));
            self.label_buffers.push(LabelBuffer { buffer, text: String::new(), size: f32::NAN });
        }
        self.label_buffers.truncate(label_count);
        for (slot, label) in
            self.label_buffers.iter_mut().zip(layers.iter().flat_map(|l| &l.labels))
        {
            let size = clamp_size(label.size);
            if slot.text != label.text || slot.size != size {
                slot.buffer.set_metrics(Metrics::new(size, size * LINE_HEIGHT));
                slot.buffer.set_size(None, None);
                slot.buffer.set_text(&label.text, &text_attrs(), Shaping::Advanced, None);
                slot.buffer.shape_until_scroll(&mut self.fonts.system, false);
                slot.text.clone_from(&label.text);
                slot.size = size;
            }
        }

        self.viewport.update(queue, Resolution { width, height });
        while self.text_renderers.len() < layers.len() {
            self.text_renderers.push(TextRenderer::new(
                &mut self.atlas,
                device,
                wgpu::MultisampleState::default(),
                None,
            ));
        }
        let mut first_label = 0;
        for (layer, renderer) in layers.iter().zip(&mut self.text_renderers) {
            let buffers = &self.label_buffers[first_label..first_label + layer.labels.len()];
            first_label += layer.labels.len();
            let areas = layer.labels.iter().zip(buffers).map(|(label, slot)| TextArea {
                buffer: &slot.buffer,
                left: label.x * scale,
                top: label.y * scale,
                scale,
                bounds: label.clip.map_or_else(TextBounds::default, |c| {
                    let [x, y, w, h] = physical(c, scale);
                    TextBounds {
                        left: x.round() as i32,
                        top: y.round() as i32,
                        right: (x + w).round() as i32,
                        bottom: (y + h).round() as i32,
                    }
                }),
                default_color: text_color(label.color),
                custom_glyphs: &[],
            });
            if let Err(err) = renderer.prepare(
                device,
                queue,
                &mut self.fonts.system,
                &mut self.atlas,
                &self.viewport,
                areas,
                &mut self.swash_cache,
            ) {
                log::warn!("text of a layer not drawn: {err}");
            }
        }

        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("ui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(self.clear_color(clear)),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            for (range, renderer) in self.quad_ranges.iter().zip(&self.text_renderers) {
                if !range.is_empty() {
                    pass.set_pipeline(&self.pipeline);
                    pass.set_bind_group(0, &self.globals_bind_group, &[]);
                    pass.set_vertex_buffer(0, self.instances.slice(..));
                    pass.draw(0..4, range.clone());
                }
                if let Err(err) = renderer.render(&self.atlas, &self.viewport, &mut pass) {
                    log::warn!("text of a layer not drawn: {err}");
                }
            }
        }

        // Glyphs not used this frame may be evicted from the atlas later.
        self.atlas.trim();
    }

    /// `c` as the shader wants it: straight alpha, linear for an sRGB target.
    fn shader_color(&self, c: Rgba) -> [f32; 4] {
        let channel = |v: u8| {
            if self.srgb { srgb_to_linear(v) } else { f32::from(v) / 255.0 }
        };
        [channel(c.0), channel(c.1), channel(c.2), f32::from(c.3) / 255.0]
    }

    fn clear_color(&self, c: Rgba) -> wgpu::Color {
        let [r, g, b, a] = self.shader_color(c);
        wgpu::Color { r: f64::from(r), g: f64::from(g), b: f64::from(b), a: f64::from(a) }
    }
}

/// A font system holding only the compiled-in fonts: Ubuntu Light as the sans-serif family (the
/// one labels use) and Hack as the monospace one.
fn embedded_font_system() -> FontSystem {
    let mut db = fontdb::Database::new();
    let sans =
        db.load_font_source(fontdb::Source::Binary(Arc::new(epaint_default_fonts::UBUNTU_LIGHT)));
    let mono =
        db.load_font_source(fontdb::Source::Binary(Arc::new(epaint_default_fonts::HACK_REGULAR)));
    let family_of = |ids: &[fontdb::ID]| {
        ids.first()
            .and_then(|&id| db.face(id))
            .and_then(|face| face.families.first())
            .map(|(name, _)| name.clone())
    };
    let (sans, mono) = (family_of(&sans), family_of(&mono));
    if let Some(name) = sans {
        db.set_sans_serif_family(name);
    }
    if let Some(name) = mono {
        db.set_monospace_family(name);
    }
    FontSystem::new_with_locale_and_db("en-US".to_owned(), db)
}

fn text_attrs() -> Attrs<'static> {
    Attrs::new().family(Family::SansSerif)
}

/// Font sizes below this would make a zero line height, which cosmic-text rejects.
fn clamp_size(size: f32) -> f32 {
    if size.is_finite() { size.max(1.0) } else { 1.0 }
}

/// The width of the widest line of a shaped buffer.
fn line_width(buffer: &Buffer) -> f32 {
    buffer.layout_runs().map(|run| run.line_w).fold(0.0, f32::max)
}

/// A text colour for glyphon. It gets sRGB bytes in both modes: with `ColorMode::Accurate` (sRGB
/// targets) its shader linearises them, with `ColorMode::Web` it passes them through.
fn text_color(c: Rgba) -> Color {
    Color::rgba(c.0, c.1, c.2, c.3)
}

fn physical(r: Rect, scale: f32) -> [f32; 4] {
    [r.x * scale, r.y * scale, r.w * scale, r.h * scale]
}

fn srgb_to_linear(v: u8) -> f32 {
    let c = f32::from(v) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

fn create_instance_buffer(device: &wgpu::Device, capacity: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("ui quad instances"),
        size: (capacity * std::mem::size_of::<QuadInstance>()) as wgpu::BufferAddress,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
