"""Model zoo: real architectures written as Paddle inference programs.

Each builder returns a ProgramBuilder (and, where the weights come from a
PyTorch module, that module, so it can serve as a numerical oracle):

    resnet50(seed, width=64, classes=1000)
                          torchvision ResNet-50, weights copied from it; a
                          smaller `width` (the first stage's planes) keeps
                          its 16 bottleneck blocks with fewer channels
    mobilenet_v2(seed)    torchvision MobileNetV2, weights copied from it
    bert_base(seed, layers=12, hidden=768, heads=12, vocab=30522)
                          BERT encoder as Paddle exports it (embeddings +
                          layer_norm + matmul_v2 attention); dynamic batch and
                          sequence length; weights copied from TorchBert
    ocr_rec(seed)         PP-OCR-like text recognizer (conv backbone + SVTR-style
                          mixer + CTC head), dynamic image width; weights of
                          the TorchOCR module
    ctr_dnn(seed)         CTR DNN: 26 sparse slots through lookup_table_v2,
                          a dense input, three fc layers, softmax; weights of
                          the TorchCTR module

Command line:  python3 -m paddle_mlir.zoo NAME OUTDIR [--format pdmodel|fluid]
"""

import argparse
import sys

import numpy as np

from .builder import ProgramBuilder

MODELS = ("resnet50", "mobilenet_v2", "bert_base", "ocr_rec", "ctr_dnn")


def _torch():
    import torch
    return torch


def _randomize_bn(module, torch, gen):
    """Random running statistics so batch_norm is not the identity."""
    for m in module.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            with torch.no_grad():
                m.weight.uniform_(0.5, 1.5, generator=gen)
                m.bias.uniform_(-0.2, 0.2, generator=gen)
                m.running_mean.uniform_(-0.2, 0.2, generator=gen)
                m.running_var.uniform_(0.5, 1.5, generator=gen)


class _TorchWeights:
    def __init__(self, b, module):
        self.b = b
        self.sd = {k: v.detach().cpu().numpy() for k, v in module.state_dict().items()}

    def __call__(self, name, transpose=False):
        a = self.sd[name]
        return self.b.param(name, np.ascontiguousarray(a.T if transpose else a))


def _conv_bn(b, w, x, conv, bn, cname, bname, act=None):
    depthwise = conv.groups > 1 and conv.groups == conv.in_channels == conv.out_channels
    y = b.conv2d(x, w(cname + ".weight"), stride=list(conv.stride), padding=list(conv.padding),
                 groups=conv.groups, depthwise=depthwise)
    y = b.batch_norm(y, w(bname + ".weight"), w(bname + ".bias"), w(bname + ".running_mean"),
                     w(bname + ".running_var"), bn.eps)
    return b.act(act, y) if act else y


def make_torch_resnet50(seed=0, width=64, classes=1000):
    """torchvision's ResNet-50 with seeded weights and random running
    statistics: the module resnet50() exports. `width` (64 in ResNet-50)
    is the stem's channels and the first stage's planes, doubled at each
    stage (expansion 4 as in ResNet-50): a narrower network of the same
    depth and shape, still a torchvision ResNet (same forward)."""
    torch = _torch()
    import torchvision
    from torchvision.models.resnet import Bottleneck
    torch.manual_seed(seed)
    m = torchvision.models.resnet50(weights=None, num_classes=classes).eval()
    if width != 64:
        nn = torch.nn
        m.inplanes = width
        m.conv1 = nn.Conv2d(3, width, kernel_size=7, stride=2, padding=3, bias=False)
        m.bn1 = nn.BatchNorm2d(width)
        for i, blocks in enumerate((3, 4, 6, 3)):
            setattr(m, "layer%d" % (i + 1),
                    m._make_layer(Bottleneck, width << i, blocks, stride=1 if i == 0 else 2))
        m.fc = nn.Linear(8 * width * Bottleneck.expansion, classes)
        for mod in m.modules():  # torchvision's initialization of the new layers
            if isinstance(mod, nn.Conv2d):
                nn.init.kaiming_normal_(mod.weight, mode="fan_out", nonlinearity="relu")
        m.eval()
    _randomize_bn(m, torch, torch.Generator().manual_seed(seed))
    return m


def resnet50(seed=0, width=64, classes=1000):
    m = make_torch_resnet50(seed, width, classes)
    b = ProgramBuilder()
    w = _TorchWeights(b, m)
    x = b.feed("image", [-1, 3, 224, 224])
    y = _conv_bn(b, w, x, m.conv1, m.bn1, "conv1", "bn1", "relu")
    y = b.pool2d(y, "max", 3, stride=2, padding=1)
    for li in range(1, 5):
        for bi, blk in enumerate(getattr(m, "layer%d" % li)):
            p = "layer%d.%d" % (li, bi)
            r = _conv_bn(b, w, y, blk.conv1, blk.bn1, p + ".conv1", p + ".bn1", "relu")
            r = _conv_bn(b, w, r, blk.conv2, blk.bn2, p + ".conv2", p + ".bn2", "relu")
            r = _conv_bn(b, w, r, blk.conv3, blk.bn3, p + ".conv3", p + ".bn3")
            sc = y
            if blk.downsample is not None:
                sc = _conv_bn(b, w, y, blk.downsample[0], blk.downsample[1], p + ".downsample.0",
                              p + ".downsample.1")
            y = b.relu(b.elementwise("elementwise_add", r, sc))
    y = b.pool2d(y, "avg", 1, adaptive=True)
    y = b.flatten(y, 1, 3)
    y = b.linear(y, w("fc.weight", transpose=True), w("fc.bias"))
    b.fetch(y)
    return b, m


def mobilenet_v2(seed=0):
    torch = _torch()
    import torchvision
    from torchvision.ops.misc import Conv2dNormActivation
    torch.manual_seed(seed)
    m = torchvision.models.mobilenet_v2(weights=None).eval()
    _randomize_bn(m, torch, torch.Generator().manual_seed(seed))
    b = ProgramBuilder()
    w = _TorchWeights(b, m)
    x = b.feed("image", [-1, 3, 224, 224])

    def cna(y, mod, name):  # conv + bn + relu6
        return _conv_bn(b, w, y, mod[0], mod[1], name + ".0", name + ".1", "relu6")

    y = x
    for i, feat in enumerate(m.features):
        name = "features.%d" % i
        if isinstance(feat, Conv2dNormActivation):
            y = cna(y, feat, name)
            continue
        inp = y
        layers = list(feat.conv)
        j = 0
        while j < len(layers):
            mod = layers[j]
            sub = "%s.conv.%d" % (name, j)
            if isinstance(mod, Conv2dNormActivation):
                y = cna(y, mod, sub)
                j += 1
            else:  # projection conv followed by its batch norm
                y = _conv_bn(b, w, y, mod, layers[j + 1], sub, "%s.conv.%d" % (name, j + 1))
                j += 2
        if feat.use_res_connect:
            y = b.elementwise("elementwise_add", inp, y)
    y = b.pool2d(y, "avg", 1, adaptive=True)
    y = b.flatten(y, 1, 3)
    y = b.dropout(y, 0.2)
    y = b.linear(y, w("classifier.1.weight", transpose=True), w("classifier.1.bias"))
    b.fetch(y)
    return b, m


def make_torch_bert(seed=0, layers=12, hidden=768, heads=12, inter=None, vocab=30522, max_pos=512,
                    classes=None):
    """A BERT encoder in PyTorch with the structure bert_base() exports; with
    `classes`, a linear classifier on the first ([CLS]) position returns the
    logits [B, classes] instead of the encoder's output."""
    torch = _torch()
    nn = torch.nn
    inter = inter or 4 * hidden

    class Layer(nn.Module):
        def __init__(self):
            super().__init__()
            self.q, self.k, self.v, self.o = (nn.Linear(hidden, hidden) for _ in range(4))
            self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
            self.ffn1, self.ffn2 = nn.Linear(hidden, inter), nn.Linear(inter, hidden)
            self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

        def forward(self, x, mask):
            bsz, seq, _ = x.shape
            hd = hidden // heads

            def split(t):
                return t.reshape(bsz, seq, heads, hd).permute(0, 2, 1, 3)
            q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
            scores = torch.matmul(q, k.transpose(-1, -2)) * (hd ** -0.5) + mask
            ctx = torch.matmul(torch.softmax(scores, -1), v).permute(0, 2, 1, 3).reshape(bsz, seq, hidden)
            x = self.ln1(x + self.o(ctx))
            return self.ln2(x + self.ffn2(torch.nn.functional.gelu(self.ffn1(x))))

    class TorchBert(nn.Module):
        def __init__(self):
            super().__init__()
            self.word = nn.Embedding(vocab, hidden)
            self.pos = nn.Embedding(max_pos, hidden)
            self.tok_type = nn.Embedding(2, hidden)
            self.ln = nn.LayerNorm(hidden, eps=1e-12)
            self.layers = nn.ModuleList(Layer() for _ in range(layers))
            self.heads = heads
            self.cls = nn.Linear(hidden, classes) if classes else None

        def forward(self, input_ids, token_type_ids):
            # Position ids as the Paddle program computes them, on the ids'
            # device (a traced model then runs on a GPU too).
            ones = torch.ones_like(input_ids)
            pos = torch.cumsum(ones, 1) - ones
            x = self.ln(self.word(input_ids) + self.pos(pos) + self.tok_type(token_type_ids))
            mask = ((input_ids == 0).float() * -1e4)[:, None, None, :]
            for layer in self.layers:
                x = layer(x, mask)
            return self.cls(x[:, 0]) if self.cls is not None else x

    torch.manual_seed(seed)
    return TorchBert().eval()


def bert_base(seed=0, layers=12, hidden=768, heads=12, classes=None, vocab=30522):
    m = make_torch_bert(seed, layers, hidden, heads, vocab=vocab, classes=classes)
    b = ProgramBuilder()
    w = _TorchWeights(b, m)
    hd = hidden // heads
    ids = b.feed("input_ids", [-1, -1], "int64")
    types = b.feed("token_type_ids", [-1, -1], "int64")
    # position ids as Paddle's BERT computes them: cumsum(ones_like(ids)) - ones
    ones = b.fill_any_like(ids, 1, "int64")
    pos = b.elementwise("elementwise_sub", b.cumsum(ones, 1), ones)
    x = b.elementwise("elementwise_add", b.lookup_table_v2(w("word.weight"), ids),
                      b.lookup_table_v2(w("pos.weight"), pos))
    x = b.elementwise("elementwise_add", x, b.lookup_table_v2(w("tok_type.weight"), types))
    x = b.dropout(b.layer_norm(x, w("ln.weight"), w("ln.bias"), 2, 1e-12))
    # attention mask: (ids == 0) * -1e4, unsqueezed to [B, 1, 1, S]
    zero = b.param("pad_token_id", np.zeros([1], np.int64))
    mask = b.unsqueeze2(b.scale(b.cast(b.elementwise("equal", ids, zero), "float32"), -1e4), [1, 2])
    for i in range(layers):
        p = "layers.%d." % i

        def heads_of(t):
            return b.transpose2(b.reshape2(t, [0, 0, heads, hd]), [0, 2, 1, 3])
        q = heads_of(b.linear(x, w(p + "q.weight", True), w(p + "q.bias")))
        k = heads_of(b.linear(x, w(p + "k.weight", True), w(p + "k.bias")))
        v = heads_of(b.linear(x, w(p + "v.weight", True), w(p + "v.bias")))
        s = b.scale(b.matmul_v2(q, k, trans_y=True), hd ** -0.5)
        s = b.dropout(b.softmax(b.elementwise("elementwise_add", s, mask)))
        ctx = b.reshape2(b.transpose2(b.matmul_v2(s, v), [0, 2, 1, 3]), [0, 0, hidden])
        attn = b.dropout(b.linear(ctx, w(p + "o.weight", True), w(p + "o.bias")))
        x = b.layer_norm(b.elementwise("elementwise_add", x, attn), w(p + "ln1.weight"), w(p + "ln1.bias"),
                         2, 1e-12)
        h = b.linear(x, w(p + "ffn1.weight", True), w(p + "ffn1.bias"), act="gelu")
        h = b.dropout(b.linear(h, w(p + "ffn2.weight", True), w(p + "ffn2.bias")))
        x = b.layer_norm(b.elementwise("elementwise_add", x, h), w(p + "ln2.weight"), w(p + "ln2.bias"),
                         2, 1e-12)
    if classes:
        first = b.tmp("slice", [x.shape[0], hidden])
        first = b.op("slice", {"Input": [x]}, {"Out": [first]},
                     {"axes": [1], "starts": [0], "ends": [1], "infer_flags": [1], "decrease_axis": [1]})
        x = b.linear(first, w("cls.weight", True), w("cls.bias"))
    b.fetch(x)
    return b, m


def make_torch_ocr(seed=0, classes=97):
    """The PP-OCR-like recognizer in PyTorch: conv backbone (conv + bn +
    hard_swish, depthwise separable blocks), pooling to height 1, an
    SVTR-style MLP mixer with a residual, and a per-column class head."""
    torch = _torch()
    nn = torch.nn

    def cbh(cin, cout, k, stride, groups=1):
        return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                             nn.BatchNorm2d(cout), nn.Hardswish())

    class TorchOCR(nn.Module):
        def __init__(self):
            super().__init__()
            blocks = [cbh(3, 16, 3, 2)]
            for cin, cout, stride in ((16, 32, (1, 1)), (32, 64, (2, 1)), (64, 96, (2, 1))):
                blocks += [cbh(cin, cin, 3, stride, groups=cin), cbh(cin, cout, 1, 1)]
            self.backbone = nn.Sequential(*blocks)
            self.pool = nn.AvgPool2d((4, 2), (4, 2))
            self.ln = nn.LayerNorm(96)
            self.fc1, self.fc2 = nn.Linear(96, 192), nn.Linear(192, 96)
            self.head = nn.Linear(96, classes)

        def forward(self, x):
            y = self.pool(self.backbone(x)).squeeze(2).permute(0, 2, 1)
            y = y + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln(y))))
            return torch.softmax(self.head(y), dim=2)

    torch.manual_seed(seed)
    m = TorchOCR().eval()
    _randomize_bn(m, torch, torch.Generator().manual_seed(seed))
    with torch.no_grad():
        m.ln.weight.uniform_(0.5, 1.5)
        m.ln.bias.uniform_(-0.1, 0.1)
    return m


def ocr_rec(seed=0, classes=97):
    m = make_torch_ocr(seed, classes)
    b = ProgramBuilder()
    w = _TorchWeights(b, m)
    x = b.feed("x", [-1, 3, 32, -1])
    y = x
    for i, blk in enumerate(m.backbone):
        y = _conv_bn(b, w, y, blk[0], blk[1], "backbone.%d.0" % i, "backbone.%d.1" % i, "hard_swish")
    y = b.pool2d(y, "avg", [4, 2], stride=[4, 2])      # [N, 96, 1, W/4]
    y = b.transpose2(b.squeeze2(y, [2]), [0, 2, 1])    # [N, W/4, 96]
    h = b.layer_norm(y, w("ln.weight"), w("ln.bias"), 2)
    h = b.linear(h, w("fc1.weight", True), w("fc1.bias"), act="gelu")
    h = b.linear(h, w("fc2.weight", True), w("fc2.bias"))
    y = b.elementwise("elementwise_add", y, h)
    y = b.linear(y, w("head.weight", True), w("head.bias"))
    b.fetch(b.softmax(y, axis=2))
    return b, m


def make_torch_ctr(seed=0, slots=26, vocab=1000, emb=9, dense=13, hidden=400):
    """The CTR DNN in PyTorch: one embedding table shared by the sparse
    slots, concatenated with the dense features, three ReLU layers, softmax."""
    torch = _torch()
    nn = torch.nn

    class TorchCTR(nn.Module):
        def __init__(self):
            super().__init__()
            self.table = nn.Embedding(vocab, emb)
            widths = [slots * emb + dense, hidden, hidden, hidden]
            self.fcs = nn.ModuleList(nn.Linear(a, b_) for a, b_ in zip(widths, widths[1:]))
            self.out = nn.Linear(hidden, 2)

        def forward(self, *inputs):
            ids, dense_in = inputs[:-1], inputs[-1]
            y = torch.cat([self.table(i) for i in ids], dim=1).flatten(1)
            y = torch.cat([y, dense_in], dim=1)
            for fc in self.fcs:
                y = torch.relu(fc(y))
            return torch.softmax(self.out(y), dim=1)

    torch.manual_seed(seed)
    return TorchCTR().eval()


def ctr_dnn(seed=0, slots=26, vocab=1000, emb=9, dense=13, hidden=400):
    m = make_torch_ctr(seed, slots, vocab, emb, dense, hidden)
    b = ProgramBuilder()
    w = _TorchWeights(b, m)
    ids = [b.feed("C%d" % (i + 1), [-1, 1], "int64") for i in range(slots)]
    dense_in = b.feed("dense_input", [-1, dense])
    table = w("table.weight")
    embs = [b.lookup_table_v2(table, i) for i in ids]              # each [N, 1, emb]
    y = b.flatten(b.concat(embs, 1), 1, 2)                          # [N, slots * emb]
    y = b.concat([y, dense_in], 1)
    for i in range(3):
        y = b.linear(y, w("fcs.%d.weight" % i, True), w("fcs.%d.bias" % i), act="relu")
    y = b.linear(y, w("out.weight", True), w("out.bias"))
    b.fetch(b.softmax(y))
    return b, m


def build(name, seed=0, **kw):
    if name not in MODELS:
        raise ValueError("unknown zoo model %r (have: %s)" % (name, ", ".join(MODELS)))
    return globals()[name](seed=seed, **kw)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m paddle_mlir.zoo", description="Write a zoo model.")
    ap.add_argument("name", choices=MODELS)
    ap.add_argument("outdir")
    ap.add_argument("--format", choices=("pdmodel", "fluid"), default="pdmodel",
                    help="2.x .pdmodel/.pdiparams (default) or Fluid 1.x __model__ + files")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--layers", type=int, help="encoder layers (bert_base only)")
    args = ap.parse_args(argv)
    kw = {"layers": args.layers} if args.layers and args.name == "bert_base" else {}
    b, _ = build(args.name, args.seed, **kw)
    if args.format == "fluid":
        b.save_fluid(args.outdir)
    else:
        b.save(args.outdir)
    print("wrote %s (%d ops, %d parameters) to %s" % (args.name, len(b.ops), len(b.params), args.outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
