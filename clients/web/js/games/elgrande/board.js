// The map of Spain as SVG: nine regions with their neighbour links, the castillo, the king,
// the grandes, the mobile scoreboards and every colour's caballeros. The board is drawn
// once; `update` redraws the pieces, `setInteraction` makes areas clickable for a decision.
// Each area is one element for the keyboard and screen readers (an image, or a button while a
// decision offers it) whose name says what lies there; the pieces drawn over it are hidden
// from both and let clicks through, so that the area's name is all a reader hears and a
// click anywhere on the area reaches it.

import {s, clear} from '../../dom.js';
import {AreaName, NEIGHBOURS, REGIONS, SCOREBOARDS, areaName, currentValues} from './texts.js';
import {formatList, t} from '../../i18n.js';
import {colourCount, colourOf} from './colours.js';

const P = {
  A: [70, 72], Aw: [52, 112], P1: [78, 152], P2: [162, 160], Q: [250, 142], B: [232, 58],
  C: [372, 78], D: [472, 96], E: [598, 118], E2: [580, 172], F: [546, 236], V: [490, 246],
  R: [362, 172], S: [402, 252], T: [318, 268], P3: [184, 252], U: [440, 304], G: [522, 318],
  H: [540, 392], I: [474, 450], W: [424, 388], X: [330, 402], J: [382, 492], K: [270, 508],
  L: [204, 472], M: [162, 446], Y: [160, 362], P4: [150, 320],
};

// Each region's outline (shared corners keep borders exact), where its pieces sit, how many
// chips fit in a row, and its parchment tint.
const GEOMETRY = {
  galicia: {outline: ['A', 'B', 'Q', 'P2', 'P1', 'Aw'], at: [150, 100], cols: 3, tint: '#d7e4b5'},
  pais_vasco: {outline: ['B', 'C', 'R', 'Q'], at: [303, 104], cols: 3, tint: '#ebdca6'},
  aragon: {outline: ['C', 'D', 'V', 'U', 'S', 'R'], at: [428, 160], cols: 2, tint: '#efcf9c'},
  cataluna: {outline: ['D', 'E', 'E2', 'F', 'V'], at: [528, 150], cols: 2, tint: '#e3e6ae'},
  castilla_vieja: {outline: ['Q', 'R', 'S', 'T', 'P3', 'P2'], at: [286, 206], cols: 3, tint: '#f2dfaa'},
  castilla_nueva: {outline: ['P3', 'T', 'S', 'U', 'W', 'X', 'Y', 'P4'], at: [300, 312], cols: 3, tint: '#eac995'},
  valencia: {outline: ['V', 'F', 'G', 'H', 'I', 'W', 'U'], at: [479, 318], cols: 2, tint: '#f4dca4'},
  sevilla: {outline: ['Y', 'X', 'K', 'L', 'M'], at: [238, 428], cols: 2, tint: '#ecd3a0'},
  granada: {outline: ['X', 'W', 'I', 'J', 'K'], at: [378, 446], cols: 3, tint: '#e0c594'},
};

// Where two neighbours share a border: [a, b, border start, border end].
const LINKS = [
  ['galicia', 'pais_vasco', 'B', 'Q'], ['galicia', 'castilla_vieja', 'Q', 'P2'],
  ['pais_vasco', 'castilla_vieja', 'Q', 'R'], ['pais_vasco', 'aragon', 'C', 'R'],
  ['aragon', 'castilla_vieja', 'R', 'S'], ['aragon', 'cataluna', 'D', 'V'],
  ['aragon', 'valencia', 'V', 'U'], ['aragon', 'castilla_nueva', 'S', 'U'],
  ['cataluna', 'valencia', 'F', 'V'], ['castilla_vieja', 'castilla_nueva', 'S', 'T'],
  ['castilla_nueva', 'valencia', 'U', 'W'], ['castilla_nueva', 'granada', 'W', 'X'],
  ['castilla_nueva', 'sevilla', 'X', 'Y'], ['valencia', 'granada', 'W', 'I'],
  ['sevilla', 'granada', 'X', 'K'],
];

// The drawn links must be the rules' adjacency (shared/spec, section 1), no more, no less.
for (const region of REGIONS) {
  const drawn = LINKS.filter((l) => l[0] === region || l[1] === region).map((l) => (l[0] === region ? l[1] : l[0]));
  if (drawn.length !== NEIGHBOURS[region].length || !drawn.every((r) => NEIGHBOURS[region].includes(r))) {
    throw new Error(`the map's links of ${region} differ from its neighbours`);
  }
}

const CASTILLO = {x: 604, y: 232, w: 92, h: 176};

const points = (names) => names.map((n) => P[n].join(',')).join(' ');

// A colour's symbol, centred on (x, y), r its half size.
export function symbolShape(shape, x, y, r, attrs) {
  switch (shape) {
    case 'square':
      return s('rect', {x: x - r * 0.85, y: y - r * 0.85, width: r * 1.7, height: r * 1.7, ...attrs});
    case 'triangle':
      return s('polygon', {points: `${x},${y - r} ${x + r},${y + r * 0.8} ${x - r},${y + r * 0.8}`, ...attrs});
    case 'diamond':
      return s('polygon', {points: `${x},${y - r * 1.1} ${x + r},${y} ${x},${y + r * 1.1} ${x - r},${y}`, ...attrs});
    case 'star': {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const rr = i % 2 ? r * 0.45 : r * 1.1;
        const a = (Math.PI / 5) * i - Math.PI / 2;
        pts.push(`${(x + rr * Math.cos(a)).toFixed(1)},${(y + rr * Math.sin(a)).toFixed(1)}`);
      }
      return s('polygon', {points: pts.join(' '), ...attrs});
    }
    case 'cross':
      return s('path', {d: `M${x - r * 0.35},${y - r}h${r * 0.7}v${r * 0.65}h${r * 0.65}v${r * 0.7}h${-r * 0.65}v${r * 0.65}h${-r * 0.7}v${-r * 0.65}h${-r * 0.65}v${-r * 0.7}h${r * 0.65}z`, ...attrs});
    default:
      return s('circle', {cx: x, cy: y, r, ...attrs});
  }
}

function crown(x, y, scale = 1) {
  const d = 'M-14,8 L-16,-8 L-8,0 L0,-12 L8,0 L16,-8 L14,8 Z';
  return s('g', {class: 'king', transform: `translate(${x},${y}) scale(${scale})`},
    s('path', {d, fill: '#f6c744', stroke: '#6b4a00', 'stroke-width': 1.6, 'stroke-linejoin': 'round'}),
    s('rect', {x: -14, y: 8, width: 28, height: 5, rx: 1.5, fill: '#f6c744', stroke: '#6b4a00', 'stroke-width': 1.6}),
    s('circle', {cx: 0, cy: -12, r: 2.2, fill: '#b3261e'}));
}

export class Board {
  constructor() {
    this.areaGroups = {};
    this.contentGroups = {};
    this.linkLines = [];
    this.interaction = null;
    this.svg = s('svg', {
      viewBox: '0 0 720 530', class: 'board', role: 'group', 'aria-label': t('elgrande.map.label'),
      'data-testid': 'map', focusable: 'false',
    });
    this.build();
  }

  build() {
    const defs = s('defs', {},
      s('linearGradient', {id: 'sea', x1: 0, y1: 0, x2: 0, y2: 1},
        s('stop', {offset: '0', 'stop-color': '#a9cfe0'}), s('stop', {offset: '1', 'stop-color': '#7fb0c9'})),
      s('pattern', {id: 'foreign', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)'},
        s('rect', {width: 8, height: 8, fill: '#d9d1bf'}), s('line', {x1: 0, y1: 0, x2: 0, y2: 8, stroke: '#c8bea8', 'stroke-width': 3})),
      s('filter', {id: 'lift', x: '-20%', y: '-20%', width: '140%', height: '140%'},
        s('feDropShadow', {dx: 0, dy: 1.2, stdDeviation: 1.1, 'flood-opacity': 0.35})));
    this.svg.append(defs);
    // Sea, coasts and neighbours are scenery: readers hear the areas only.
    const scenery = s('g', {'aria-hidden': 'true'});
    scenery.append(s('rect', {x: 1, y: 1, width: 718, height: 528, fill: 'url(#sea)', rx: 10, class: 'sea'}));
    // Waves, so the sea reads as sea.
    const waves = s('g', {class: 'waves', 'aria-hidden': 'true'});
    for (const [x, y] of [[40, 30], [120, 24], [620, 470], [560, 505], [40, 480], [660, 200], [100, 510]]) {
      waves.append(s('path', {d: `M${x},${y} q6,-5 12,0 t12,0 t12,0`, fill: 'none', stroke: '#ffffff', 'stroke-opacity': 0.55, 'stroke-width': 1.5}));
    }
    scenery.append(waves);
    // The neighbours that are not part of the game.
    scenery.append(s('polygon', {points: '330,10 700,10 700,104 598,118 472,96 372,78 330,64', fill: 'url(#foreign)', stroke: '#9b8f76', 'stroke-width': 1.5}));
    scenery.append(s('text', {x: 520, y: 52, class: 'foreign-label'}, t('elgrande.map.francia')));
    scenery.append(s('polygon', {points: `${points(['P1', 'P2', 'P3', 'P4', 'Y', 'M'])} 120,456 74,424 58,332 66,240 62,188`, fill: 'url(#foreign)', stroke: '#9b8f76', 'stroke-width': 1.5}));
    scenery.append(s('text', {x: 96, y: 320, class: 'foreign-label', transform: 'rotate(-80 96 320)'}, t('elgrande.map.portugal')));
    scenery.append(s('text', {x: 120, y: 36, class: 'sea-label'}, t('elgrande.map.cantabrico')));
    scenery.append(s('text', {x: 640, y: 470, class: 'sea-label', 'text-anchor': 'middle'}, t('elgrande.map.mediterraneo')));
    this.svg.append(scenery);

    const regionsLayer = s('g', {class: 'regions'});
    const piecesLayer = s('g', {class: 'pieces', 'aria-hidden': 'true'});
    for (const region of REGIONS) {
      const geo = GEOMETRY[region];
      const shape = s('polygon', {points: points(geo.outline), fill: geo.tint, class: 'region-shape'});
      const content = s('g', {class: 'region-content', 'data-area': region});
      const group = s('g', {
        class: 'area region', 'data-area': region, 'data-testid': `map-area-${region}`, tabindex: -1, role: 'img',
      }, s('title', {}, areaName(region)), shape);
      this.wire(group, region);
      this.areaGroups[region] = group;
      this.contentGroups[region] = content;
      regionsLayer.append(group);
      piecesLayer.append(content);
    }
    this.svg.append(regionsLayer);

    // Neighbour links: a bridge across each shared border.
    const links = s('g', {class: 'links', 'aria-hidden': 'true'});
    for (const [a, b, from, to] of LINKS) {
      const [x1, y1] = P[from];
      const [x2, y2] = P[to];
      const mx = (x1 + x2) / 2;
      const my = (y1 + y2) / 2;
      const len = Math.hypot(x2 - x1, y2 - y1);
      const nx = -(y2 - y1) / len;
      const ny = (x2 - x1) / len;
      const line = s('g', {class: 'link', 'data-link': `${a} ${b}`},
        s('line', {x1: mx - nx * 10, y1: my - ny * 10, x2: mx + nx * 10, y2: my + ny * 10}),
        s('circle', {cx: mx - nx * 10, cy: my - ny * 10, r: 2.4}),
        s('circle', {cx: mx + nx * 10, cy: my + ny * 10, r: 2.4}));
      this.linkLines.push({a, b, el: line});
      links.append(line);
    }
    this.svg.append(links);
    this.svg.append(piecesLayer);

    // The castillo, out at sea.
    const c = CASTILLO;
    const battlements = [];
    for (let i = 0; i < 5; i++) battlements.push(s('rect', {x: c.x + 4 + i * 18, y: c.y - 10, width: 12, height: 14, class: 'castillo-stone'}));
    const castilloContent = s('g', {class: 'region-content', 'data-area': 'castillo'});
    const castillo = s('g', {class: 'area castillo', 'data-area': 'castillo', 'data-testid': 'map-area-castillo', tabindex: -1, role: 'img'},
      s('title', {}, AreaName('castillo')),
      ...battlements,
      s('rect', {x: c.x, y: c.y, width: c.w, height: c.h, rx: 4, class: 'castillo-stone region-shape'}),
      s('path', {d: `M${c.x + c.w / 2 - 12},${c.y + c.h} v-22 a12,12 0 0 1 24,0 v22 z`, fill: '#5b4634'}));
    this.wire(castillo, 'castillo');
    this.areaGroups.castillo = castillo;
    this.contentGroups.castillo = castilloContent;
    this.svg.append(castillo);
    this.svg.append(s('g', {class: 'pieces', 'aria-hidden': 'true'}, castilloContent));
  }

  wire(group, area) {
    group.addEventListener('click', () => this.activate(area));
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        this.activate(area);
      }
    });
  }

  activate(area) {
    const i = this.interaction;
    if (i && i.clickable.has(area)) i.onActivate(area);
  }

  // ctx: {view, names, mySeat}
  update(view, ctx) {
    this.view = view;
    this.ctx = ctx;
    const colours = colourCount(view.options);
    for (const region of REGIONS) this.drawRegion(region, view, ctx, colours);
    this.drawCastillo(view, ctx);
    for (const {a, b, el} of this.linkLines) {
      el.classList.toggle('royal', a === view.king || b === view.king);
    }
    this.applyInteraction();
  }

  drawRegion(region, view, ctx, colours) {
    const geo = GEOMETRY[region];
    const [x, y] = geo.at;
    const content = clear(this.contentGroups[region]);
    const group = this.areaGroups[region];
    const isKing = view.king === region;
    group.classList.toggle('king-region', isKing);

    content.append(s('text', {x, y: y - 20, class: 'region-name', 'text-anchor': 'middle'}, areaName(region)));
    content.append(this.valuesTag(view, region, x, y - 6));
    if (isKing) content.append(crown(x, y - 44, 0.9));

    const counts = view.regions[region] || [];
    const pieces = [];
    for (let c = 0; c < colours; c++) {
      if (counts[c] > 0) pieces.push({kind: 'chip', colour: c, count: counts[c]});
    }
    view.players.forEach((p, seat) => {
      if (p.grande === region) pieces.push({kind: 'grande', colour: seat});
    });
    const cols = geo.cols;
    const chipW = 34;
    const rows = Math.ceil(pieces.length / cols);
    pieces.forEach((piece, i) => {
      const row = Math.floor(i / cols);
      const inRow = Math.min(cols, pieces.length - row * cols);
      const col = i % cols;
      const cx = x - (inRow * chipW + (inRow - 1) * 3) / 2 + col * (chipW + 3);
      const cy = y + 6 + row * 23;
      content.append(piece.kind === 'chip'
        ? this.chip(piece.colour, piece.count, cx, cy, view, ctx)
        : this.grandeToken(piece.colour, cx, cy, view, ctx));
    });

    const summary = [];
    for (let c = 0; c < colours; c++) if (counts[c] > 0) summary.push(t('elgrande.map.colour_count', {colour: this.colourLabel(c, ctx, view), n: counts[c]}));
    const grandes = view.players.map((p, seat) => (p.grande === region ? t('elgrande.map.whose_grande', {who: ctx.names[seat]}) : null)).filter(Boolean);
    const values = currentValues(view, region).join('/');
    const about = [t(isKing ? 'elgrande.map.king_region_values' : 'elgrande.map.region_values', {area: areaName(region), values}),
      summary.length ? t('elgrande.map.caballeros', {list: formatList(summary, 'unit')}) : t('elgrande.map.no_caballeros')];
    if (grandes.length) about.push(t('elgrande.map.grandes', {list: formatList(grandes, 'unit')}));
    group.dataset.label = about.join(' ');
    group.dataset.rows = String(rows);
  }

  colourLabel(c, ctx, view) {
    const col = colourOf(c, view.options);
    const who = view.options.automa && c === view.options.players ? t('elgrande.map.automa') : ctx.names[c];
    return t('elgrande.map.colour_label', {who, colour: t(`elgrande.colour.${col.name}`)});
  }

  valuesTag(view, area, x, y) {
    const values = currentValues(view, area);
    const board = Object.entries(view.scoreboards || {}).find(([, at]) => at === area);
    if (board) {
      return s('g', {class: 'scoreboard-tag', 'data-scoreboard': board[0]},
        s('rect', {x: x - 28, y: y - 10, width: 56, height: 15, rx: 3}),
        s('text', {x, y: y + 1.5, 'text-anchor': 'middle'}, SCOREBOARDS[board[0]].short));
    }
    return s('text', {x, y: y + 1, class: 'region-values', 'text-anchor': 'middle'}, values.join(' · '));
  }

  chip(colour, count, x, y, view, ctx, {title, testid} = {}) {
    const col = colourOf(colour, view.options);
    const mine = colour === ctx.mySeat;
    return s('g', {class: `chip${mine ? ' mine' : ''}`, filter: 'url(#lift)', 'data-testid': testid},
      s('title', {}, title ?? t('elgrande.map.chip', {colour: this.colourLabel(colour, ctx, view), n: count})),
      s('rect', {x, y, width: 34, height: 20, rx: 5, fill: '#fffdf6', stroke: col.fill, 'stroke-width': mine ? 3 : 2}),
      symbolShape(col.shape, x + 10, y + 10, 6, {fill: col.fill, stroke: '#1b1b1b', 'stroke-width': 0.8}),
      s('text', {x: x + 25, y: y + 15, class: 'chip-count', 'text-anchor': 'middle'}, String(count)));
  }

  grandeToken(seat, x, y, view, ctx) {
    const col = colourOf(seat, view.options);
    return s('g', {class: 'grande', filter: 'url(#lift)'},
      s('title', {}, t('elgrande.map.grande_title', {who: ctx.names[seat], colour: t(`elgrande.colour.${col.name}`)})),
      s('rect', {x: x + 4, y: y - 2, width: 26, height: 24, rx: 4, fill: col.fill, stroke: '#1b1b1b', 'stroke-width': 1.4}),
      symbolShape(col.shape, x + 17, y + 7, 5, {fill: col.ink}),
      s('text', {x: x + 17, y: y + 20, class: 'grande-letter', fill: col.ink, 'text-anchor': 'middle'}, t('elgrande.map.grande_letter')));
  }

  drawCastillo(view, ctx) {
    const c = CASTILLO;
    const content = clear(this.contentGroups.castillo);
    const x = c.x + c.w / 2;
    content.append(s('text', {x, y: c.y + 20, class: 'region-name castillo-name', 'text-anchor': 'middle'}, t('elgrande.map.castillo')));
    content.append(this.valuesTag(view, 'castillo', x, c.y + 38));
    const me = ctx.mySeat >= 0 ? view.players[ctx.mySeat] : null;
    if (me && me.castillo !== undefined) {
      content.append(this.chip(ctx.mySeat, me.castillo, x - 17, c.y + 52, view, ctx,
        {title: t('elgrande.map.castillo_mine', {n: me.castillo}), testid: 'castillo-mine'}));
      content.append(s('text', {x, y: c.y + 88, class: 'castillo-note', 'text-anchor': 'middle'}, t('elgrande.map.yours')));
      content.append(s('text', {x, y: c.y + 104, class: 'castillo-note', 'text-anchor': 'middle'}, t('elgrande.map.others_secret')));
    } else {
      content.append(s('text', {x, y: c.y + 70, class: 'castillo-note', 'text-anchor': 'middle'}, t('elgrande.map.contents')));
      content.append(s('text', {x, y: c.y + 84, class: 'castillo-note', 'text-anchor': 'middle'}, t('elgrande.map.secret')));
    }
    const group = this.areaGroups.castillo;
    const values = currentValues(view, 'castillo').join('/');
    group.dataset.label = me && me.castillo !== undefined
      ? t('elgrande.map.castillo_label_mine', {values, n: me.castillo}) : t('elgrande.map.castillo_label', {values});
  }

  // Points out the areas the latest events changed, for a moment.
  flash(areas) {
    for (const area of new Set(areas)) {
      const group = this.areaGroups[area];
      if (!group) continue;
      group.classList.remove('changed');
      // Restart the animation when the same area changes again.
      void group.getBoundingClientRect();
      group.classList.add('changed');
      clearTimeout(group.flashTimer);
      group.flashTimer = setTimeout(() => group.classList.remove('changed'), 2600);
    }
  }

  // interaction: {clickable: Set of areas, badges: {area: text}, onActivate(area), hint}
  setInteraction(interaction) {
    this.interaction = interaction;
    this.applyInteraction();
  }

  applyInteraction() {
    const i = this.interaction;
    for (const [area, group] of Object.entries(this.areaGroups)) {
      const clickable = Boolean(i && i.clickable.has(area));
      group.classList.toggle('clickable', clickable);
      group.classList.toggle('dimmed', Boolean(i && i.dimOthers && !clickable));
      group.dataset.clickable = String(clickable);
      group.setAttribute('tabindex', clickable ? '0' : '-1');
      // Its name says what lies there, then, while a decision offers it, what a press does (a
      // sentence: the hints are the decision panel's).
      const about = group.dataset.label || t('elgrande.map.area', {area: AreaName(area)});
      const hint = clickable && i.hint ? i.hint(area) : '';
      const label = hint ? t('elgrande.map.with_hint', {about, hint}) : about;
      group.setAttribute('role', clickable ? 'button' : 'img');
      group.setAttribute('aria-label', label);
      group.querySelector('title').textContent = label;
      const content = this.contentGroups[area];
      const old = content.querySelector('.badge');
      if (old) old.remove();
      const badge = i && i.badges && i.badges[area];
      if (badge) {
        const [bx, by] = area === 'castillo' ? [CASTILLO.x + CASTILLO.w / 2, CASTILLO.y + CASTILLO.h - 40] : badgeSpot(area);
        content.append(s('g', {class: 'badge', 'data-testid': `badge-${area}`},
          s('rect', {x: bx - 18, y: by - 11, width: 36, height: 20, rx: 10}),
          s('text', {x: bx, y: by + 4, 'text-anchor': 'middle'}, badge)));
      }
    }
  }
}

function badgeSpot(area) {
  const [x, y] = GEOMETRY[area].at;
  return [x + 44, y - 36];
}

