// Instanced rounded rectangles for the demo's UI (examples/demo/gfx.rs).
//
// One instance per rectangle, drawn as a 4-vertex triangle strip. All positions and lengths are
// physical pixels with the origin at the top-left of the target.
//
// Colours arrive with straight (not premultiplied) alpha, already in the target's encoding space:
// linear for an sRGB target (the hardware encodes on write), sRGB values as they are for a plain
// unorm target. The fragment shader outputs premultiplied alpha; the pipeline blends with
// `PREMULTIPLIED_ALPHA_BLENDING`.

struct Globals {
    // Size of the render target in physical pixels (z, w unused).
    viewport: vec4<f32>,
};

@group(0) @binding(0)
var<uniform> globals: Globals;

struct Instance {
    // x, y, w, h of the rectangle.
    @location(0) rect: vec4<f32>,
    // Fill colour, RGBA with straight alpha.
    @location(1) fill: vec4<f32>,
    // Border colour, RGBA with straight alpha.
    @location(2) border_color: vec4<f32>,
    // x, y, w, h of the clip rectangle: pixels whose centre is outside are not drawn.
    @location(3) clip: vec4<f32>,
    // x: corner radius, y: border width (drawn inside the rectangle).
    @location(4) shape: vec2<f32>,
};

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) @interpolate(flat) rect: vec4<f32>,
    @location(1) @interpolate(flat) fill: vec4<f32>,
    @location(2) @interpolate(flat) border_color: vec4<f32>,
    @location(3) @interpolate(flat) clip: vec4<f32>,
    @location(4) @interpolate(flat) shape: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, inst: Instance) -> VertexOutput {
    // Cover the rectangle plus one pixel on each side for the anti-aliased edge, intersected with
    // the clip rectangle so clipped-away pixels are not even rasterised.
    let lo = max(inst.rect.xy - vec2<f32>(1.0), inst.clip.xy);
    let hi = max(min(inst.rect.xy + inst.rect.zw + vec2<f32>(1.0), inst.clip.xy + inst.clip.zw), lo);
    let corner = vec2<f32>(f32(vertex & 1u), f32((vertex >> 1u) & 1u));
    let pos = mix(lo, hi, corner);

    var out: VertexOutput;
    let ndc = pos / globals.viewport.xy * 2.0 - vec2<f32>(1.0);
    out.position = vec4<f32>(ndc.x, -ndc.y, 0.0, 1.0);
    out.rect = inst.rect;
    out.fill = inst.fill;
    out.border_color = inst.border_color;
    out.clip = inst.clip;
    out.shape = inst.shape;
    return out;
}

// Signed distance from `p` to a box of half-size `half` centred on the origin whose corners are
// rounded with radius `r`: negative inside, positive outside.
fn rounded_box_sdf(p: vec2<f32>, half: vec2<f32>, r: f32) -> f32 {
    let q = abs(p) - half + vec2<f32>(r);
    return length(max(q, vec2<f32>(0.0))) + min(max(q.x, q.y), 0.0) - r;
}

@fragment
fn fs_main(in: VertexOutput) -> @location(0) vec4<f32> {
    // `position.xy` is the pixel centre (x + 0.5, y + 0.5) in physical pixels.
    let p = in.position.xy;
    let clip_lo = in.clip.xy;
    let clip_hi = in.clip.xy + in.clip.zw;
    if p.x < clip_lo.x || p.y < clip_lo.y || p.x >= clip_hi.x || p.y >= clip_hi.y {
        discard;
    }

    let half = in.rect.zw * 0.5;
    let radius = clamp(in.shape.x, 0.0, min(half.x, half.y));
    let d = rounded_box_sdf(p - (in.rect.xy + half), half, radius);

    // Coverage ramps over one pixel around the outline.
    let coverage = clamp(0.5 - d, 0.0, 1.0);
    if coverage <= 0.0 {
        discard;
    }

    // The border is the ring where -border < d <= 0, with the same one-pixel ramp on its inner edge.
    let border = max(in.shape.y, 0.0);
    var border_mix = 0.0;
    if border > 0.0 {
        border_mix = clamp(d + border + 0.5, 0.0, 1.0);
    }

    let fill = vec4<f32>(in.fill.rgb * in.fill.a, in.fill.a);
    let ring = vec4<f32>(in.border_color.rgb * in.border_color.a, in.border_color.a);
    return mix(fill, ring, border_mix) * coverage;
}
