#include "host/pac/record.hpp"

#include "host/pac/protocol.hpp"

namespace gaeval::pac {

namespace {

nlohmann::json xy(const Map& map, int c) { return {map.x_of(c), map.y_of(c)}; }

nlohmann::json cells_json(const Map& map, const BB& cells) {
    nlohmann::json out = nlohmann::json::array();
    for_each_cell(cells, [&](int c) { out.push_back(xy(map, c)); });
    return out;
}

}  // namespace

nlohmann::json match_json(const Map& map, const Setup& setup, const Pos& start, const MatchLog& log,
                          const std::string players[2], uint64_t seed, uint32_t index,
                          const GameRecord& record) {
    nlohmann::json turns = nlohmann::json::array();
    for (const TurnLog& t : log.turns) {
        nlohmann::json sides = nlohmann::json::array();
        for (int s = 0; s < 2; ++s) {
            nlohmann::json pacs = nlohmann::json::array();
            for (int k = 0; k < setup.pacs; ++k) {
                const Pac& a = t.pacs[s][k];
                pacs.push_back({{"x", map.x_of(a.cell)},
                                {"y", map.y_of(a.cell)},
                                {"type", type_name(a.type)},
                                {"speed_turns", a.speed_turns},
                                {"cooldown", a.cooldown},
                                {"alive", a.alive != 0}});
            }
            sides.push_back(pacs);
        }
        nlohmann::json eaten = nlohmann::json::array();
        for (int c : t.eaten) eaten.push_back(xy(map, c));
        turns.push_back({{"turn", t.turn},
                         {"score", {t.score[0], t.score[1]}},
                         {"pacs", sides},
                         {"eaten", eaten}});
    }
    const TurnLog& last = log.turns.back();
    return {{"format", "gaeval-pac-match"},
            {"version", 1},
            {"index", index},
            {"seed", seed},
            {"players", {players[0], players[1]}},
            {"width", map.width},
            {"height", map.height},
            {"map", setup.rows},
            {"pacs", setup.pacs},
            {"super_pellets", cells_json(map, start.supers)},
            {"pellets", cells_json(map, start.pellets)},
            {"turns", turns},
            {"result",
             {{"score", {last.score[0], last.score[1]}},
              {"winner", record.winner},
              {"stopped", record.stopped != 0}}}};
}

std::string replay_html(const std::vector<nlohmann::json>& matches) {
    // The matches go in a <script> block: "</" is escaped so that no string can close it.
    std::string data = nlohmann::json(matches).dump();
    std::string safe;
    for (std::size_t i = 0; i < data.size(); ++i) {
        if (data[i] == '<' && i + 1 < data.size() && data[i + 1] == '/') {
            safe += "<\\/";
            ++i;
        } else {
            safe += data[i];
        }
    }
    static const char* kPage = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>gaeval Pac-Man replay</title>
<style>
body{font-family:sans-serif;background:#111;color:#ddd;margin:16px}
canvas{background:#000;display:block;margin:8px 0;image-rendering:pixelated}
.row{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
input[type=range]{width:480px}
.s0{color:#5af}.s1{color:#f75}
</style></head><body>
<h3>gaeval Pac-Man replay</h3>
<div class="row"><label>match <select id="match"></select></label>
<button id="play">play</button><input id="turn" type="range" min="0" value="0">
<span id="label"></span></div>
<div id="score"></div>
<canvas id="board"></canvas>
<div id="pacs"></div>
<script>
const MATCHES = @DATA@;
const cellSize = 24;
const select = document.getElementById('match'), slider = document.getElementById('turn');
const canvas = document.getElementById('board'), ctx = canvas.getContext('2d');
let match = null, timer = null;
MATCHES.forEach((m, i) => {
  const o = document.createElement('option');
  o.value = i;
  o.textContent = '#' + m.index + ': ' + m.players[0] + ' vs ' + m.players[1] +
                  ' (' + m.result.score[0] + '-' + m.result.score[1] + ')';
  select.appendChild(o);
});
function load(i) {
  match = MATCHES[i];
  canvas.width = match.width * cellSize;
  canvas.height = match.height * cellSize;
  slider.max = match.turns.length - 1;
  slider.value = 0;
  draw();
}
function draw() {
  const t = +slider.value, turn = match.turns[t];
  const gone = new Set();
  for (let i = 1; i <= t; i++) match.turns[i].eaten.forEach(c => gone.add(c[0] + ',' + c[1]));
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  match.map.forEach((row, y) => [...row].forEach((ch, x) => {
    if (ch === '#') { ctx.fillStyle = '#1c2a7a'; ctx.fillRect(x * cellSize, y * cellSize, cellSize, cellSize); }
  }));
  const dot = (c, r, color) => {
    if (gone.has(c[0] + ',' + c[1])) return;
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.arc((c[0] + 0.5) * cellSize, (c[1] + 0.5) * cellSize, r, 0, 2 * Math.PI);
    ctx.fill();
  };
  match.pellets.forEach(c => dot(c, 2.5, '#eec'));
  match.super_pellets.forEach(c => dot(c, 7, '#fd4'));
  const colors = ['#5af', '#f75'];
  let text = '';
  turn.pacs.forEach((side, s) => side.forEach((p, k) => {
    ctx.globalAlpha = p.alive ? 1 : 0.25;
    ctx.fillStyle = colors[s];
    ctx.fillRect(p.x * cellSize + 2, p.y * cellSize + 2, cellSize - 4, cellSize - 4);
    ctx.fillStyle = '#000';
    ctx.font = 'bold 13px sans-serif';
    ctx.fillText(p.type[0] + k, p.x * cellSize + 4, p.y * cellSize + 16);
    ctx.globalAlpha = 1;
    text += '<span class="s' + s + '">' + match.players[s] + ' pac ' + k + ': (' + p.x + ', ' +
            p.y + ') ' + p.type + (p.alive ? '' : ' (dead)') + ', speed ' + p.speed_turns +
            ', cooldown ' + p.cooldown + '</span><br>';
  }));
  document.getElementById('pacs').innerHTML = text;
  document.getElementById('label').textContent = 'turn ' + turn.turn + ' / ' +
      match.turns[match.turns.length - 1].turn;
  document.getElementById('score').innerHTML = '<span class="s0">' + match.players[0] + ' ' +
      turn.score[0] + '</span> : <span class="s1">' + turn.score[1] + ' ' + match.players[1] +
      '</span>';
}
select.onchange = () => load(+select.value);
slider.oninput = draw;
document.getElementById('play').onclick = () => {
  if (timer) { clearInterval(timer); timer = null; return; }
  timer = setInterval(() => {
    if (+slider.value >= +slider.max) { clearInterval(timer); timer = null; return; }
    slider.value = +slider.value + 1;
    draw();
  }, 150);
};
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') slider.value = +slider.value + 1;
  if (e.key === 'ArrowLeft') slider.value = +slider.value - 1;
  draw();
});
if (MATCHES.length) load(0);
</script></body></html>
)HTML";
    std::string page = kPage;
    page.replace(page.find("@DATA@"), 6, safe);
    return page;
}

}  // namespace gaeval::pac
