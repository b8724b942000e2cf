// I-RMI dashboard: polls api/state and api/decisions once a second and draws them.
// Everything from the server is put in the page as text (textContent), never as HTML:
// signatures, streams and peers come from the network.
(function () {
  'use strict';
  var POLL_MILLIS = 1000;
  var HISTORY = 300;          // chart points kept (5 minutes at one a second)
  var DECISIONS_SHOWN = 200;
  var lastSeq = 0;
  var series = { t: [], tp: [], base: [], cpu: [], gc: [], heap: [] };
  var charts = {};

  function $(id) { return document.getElementById(id); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function num(v, digits) {
    if (v === null || v === undefined) { return '–'; }
    if (typeof v !== 'number') { return String(v); }
    var d = digits === undefined ? (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2) : digits;
    return v.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: 0 });
  }
  function nanos(ns) {
    if (ns === null || ns === undefined) { return '–'; }
    if (ns < 1e3) { return num(ns, 0) + ' ns'; }
    if (ns < 1e6) { return num(ns / 1e3) + ' µs'; }
    if (ns < 1e9) { return num(ns / 1e6) + ' ms'; }
    return num(ns / 1e9) + ' s';
  }
  function bytes(b) {
    if (b === null || b === undefined) { return '–'; }
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (Math.abs(b) >= 1024 && i < u.length - 1) { b /= 1024; i++; }
    return num(b) + ' ' + u[i];
  }
  function time(ms) { return ms ? new Date(ms).toLocaleTimeString('en-GB', { hour12: false }) : '–'; }
  function evidenceText(ev) {
    var parts = [];
    for (var k in ev) { if (Object.prototype.hasOwnProperty.call(ev, k)) { parts.push(k + '=' + num(ev[k], 3)); } }
    return parts.join(', ');
  }
  function cell(tr, text, cls) { tr.appendChild(el('td', text, cls)); }
  function fill(tableId, rows, render, emptyText) {
    var body = $(tableId).tBodies[0];
    body.textContent = '';
    if (!rows || rows.length === 0) {
      var tr = el('tr');
      var td = el('td', emptyText || 'none', 'muted');
      td.colSpan = $(tableId).tHead.rows[0].cells.length;
      tr.appendChild(td);
      body.appendChild(tr);
      return;
    }
    rows.forEach(function (r) { var tr = el('tr'); render(tr, r); body.appendChild(tr); });
  }
  function list(a) { return a && a.length ? a.join(', ') : '–'; }
  // object keys are binary (a POA's key holds its ids): show their unprintable bytes as '·'
  function printable(s) { return String(s).replace(/[\u0000-\u001f\u007f-\u00a0]/g, '\u00b7'); }

  function renderSla(s) {
    $('service').textContent = s.service;
    $('sla-file').textContent = s.sla.file;
    $('sla-file').title = s.sla.path;
    $('sla-applied').textContent = new Date(s.sla.appliedAtMillis).toLocaleString('en-GB', { hour12: false });
    var rej = $('sla-rejection');
    rej.hidden = !s.sla.lastRejection;
    rej.textContent = s.sla.lastRejection ? 'last change refused: ' + s.sla.lastRejection : '';
    if (s.prometheus) { $('prometheus').hidden = false; $('prometheus').href = s.prometheus; }
    fill('objectives', s.sla.objectives, function (tr, o) {
      cell(tr, o.objective);
      cell(tr, o.p99TargetNanos === null ? '–' : '≤ ' + nanos(o.p99TargetNanos), 'num');
      cell(tr, o.calls ? nanos(o.p99Nanos) : 'no calls', 'num');
      cell(tr, o.minThroughputPerSecond === null ? '–' : '≥ ' + num(o.minThroughputPerSecond) + '/s', 'num');
      cell(tr, num(o.throughputPerSecond) + '/s', 'num');
      cell(tr, o.maxErrorPercent === null ? '–' : '≤ ' + num(o.maxErrorPercent) + ' %', 'num');
      cell(tr, num(o.errorPercent) + ' %', 'num');
      cell(tr, num(o.calls, 0), 'num');
      cell(tr, o.violated ? 'VIOLATED: ' + o.why : 'met', o.violated ? 'bad' : 'good');
    }, 'no objectives in this SLA (or not evaluated yet)');
  }

  function renderPoison(p) {
    $('poison-off').hidden = !!p;
    var badge = $('episode-badge');
    if (!p) { badge.textContent = 'no poison point'; badge.className = 'badge ok'; return; }
    // red only for a suspect named (a signature filtered); an episode that named none is only watched
    var filtered = p.filters.map(function (f) { return f.signature; });
    if (filtered.length) {
      badge.textContent = 'POISON FILTERED: ' + filtered.join(', ');
      badge.className = 'badge alert';
    } else if (p.watching) {
      badge.textContent = 'watching' + (p.openEpisode ? ' episode ' + p.openEpisode.episode : ' an episode')
        + ' (no suspect named)';
      badge.className = 'badge watch';
    } else {
      badge.textContent = 'no poison episode';
      badge.className = 'badge ok';
    }
    var rows = [];
    if (p.throughputBaseline) { rows.push(['baseline', p.throughputBaseline]); }
    if (p.throughputCurrent) { rows.push(['current', p.throughputCurrent]); }
    fill('poison-resources', rows, function (tr, r) {
      cell(tr, r[0]); cell(tr, num(r[1].throughputPerSecond), 'num'); cell(tr, num(r[1].cpuCores), 'num');
      cell(tr, num(r[1].gcTimePercent), 'num'); cell(tr, bytes(r[1].allocatedBytesPerSecond) + '/s', 'num');
      cell(tr, r[1].othersCores === null || r[1].othersCores === undefined ? '–' : num(r[1].othersCores), 'num');
    }, 'no samples yet');
    var open = $('open-episode');
    open.textContent = '';
    if (p.openEpisode) {
      var e = p.openEpisode;
      open.className = 'watch';
      open.appendChild(el('div', 'watching episode ' + e.episode + ' for ' + nanos(e.lastedNanos)
        + ' (no suspect named: an episode names one, if any, when it ends)'
        + '; in flight at the rise (S1): ' + list(e.inFlightAtRise)
        + '; of those, ended since: ' + list(e.suspects)));
      open.appendChild(el('div', 'cost so far: ' + evidenceText(e.evidence), 'evidence'));
    } else {
      open.className = 'muted';
      open.textContent = 'none (' + p.episodes + ' episode(s) analysed since start)';
    }
    fill('poison-filters', p.filters, function (tr, f) {
      cell(tr, f.signature); cell(tr, f.phase, f.phase === 'filtered' ? 'bad' : '');
      cell(tr, nanos(f.phaseAgeNanos), 'num'); cell(tr, nanos(f.coolDownNanos), 'num');
      cell(tr, nanos(f.coolDownLeftNanos), 'num'); cell(tr, f.timesFiltered, 'num');
      cell(tr, f.healthyProbes, 'num'); cell(tr, f.probeInFlight ? 'yes' : 'no');
    }, 'nothing filtered');
    fill('poison-episodes', p.episodeReports, function (tr, e) {
      cell(tr, e.episode, 'num'); cell(tr, nanos(e.lastedNanos), 'num'); cell(tr, list(e.inFlightAtRise));
      var named = !!e.namedByCost || e.filtered.length > 0;
      cell(tr, list(e.suspects), named ? 'bad suspects' : 'suspects'); cell(tr, list(e.narrowed));
      cell(tr, e.namedByCost || '–', e.namedByCost ? 'bad' : ''); cell(tr, list(e.filtered));
      cell(tr, evidenceText(e.evidence), 'evidence');
    }, 'no episode yet');
  }

  function renderSlowClient(s, local) {
    $('slow-off').hidden = !!s;
    fill('pairs', s ? s.pairs : [], function (tr, p) {
      cell(tr, p.name); cell(tr, p.incoming); cell(tr, p.outgoing); cell(tr, num(p.fanOut), 'num');
      cell(tr, num(p.incomingPerSecond), 'num'); cell(tr, num(p.outgoingPerSecond), 'num');
      cell(tr, num(p.queueGrowthPerSecond), 'num'); cell(tr, num(p.estimatedQueueLength, 0), 'num');
      cell(tr, p.measuredQueueLength === null ? '–' : num(p.measuredQueueLength, 0), 'num');
      cell(tr, p.host || '–'); cell(tr, p.triggered ? 'TRIGGERED' : 'ok', p.triggered ? 'bad' : 'good');
      cell(tr, evidenceText(p.evidence), 'evidence');
    }, s ? 'no causal pairs' : 'not in this SLA');
    // this node's own load first (what the point weighs as local load), then each remote host's report
    var rows = [];
    if (s && local) {
      rows.push({ host: 'this node (local)', local: true, triggered: false, rttNanos: null,
        remote: { cpuPercent: local.processCpuPercent, heapPercent: local.heapPercent,
          queueLength: local.handOffQueueLength, gcPerSecond: local.gcPerSecond, overloaded: false, reportAgeNanos: null } });
    }
    fill('hosts', s ? rows.concat(s.hosts) : [], function (tr, h) {
      var r = h.remote;
      cell(tr, h.host);
      cell(tr, r ? num(r.cpuPercent) : '–', 'num'); cell(tr, r ? num(r.heapPercent) : '–', 'num');
      cell(tr, r ? r.queueLength : '–', 'num'); cell(tr, r ? num(r.gcPerSecond) : '–', 'num');
      cell(tr, r ? (r.overloaded ? 'yes' : 'no') : 'no report', r && r.overloaded ? 'bad' : '');
      cell(tr, r && !h.local ? nanos(r.reportAgeNanos) : '–', 'num'); cell(tr, nanos(h.rttNanos), 'num');
      cell(tr, h.local ? '–' : h.triggered ? 'TRIGGERED' : 'ok', h.triggered ? 'bad' : h.local ? '' : 'good');
    }, 'no remote host heard from yet');
  }

  function renderCrosstalk(x, resources) {
    $('crosstalk-off').hidden = !!x;
    $('active-streams').textContent = x ? x.activeStreams + ' active stream(s)' : '';
    fill('connections', x ? x.connections : [], function (tr, c) {
      cell(tr, c.connectionId, 'num'); cell(tr, c.peer); cell(tr, num(c.weight), 'num');
      cell(tr, num(c.weightSharePercent) + ' %', 'num'); cell(tr, bytes(c.readBudgetBytes), 'num');
      cell(tr, c.receiveBufferBytes === null ? 'kernel autotuning' : bytes(c.receiveBufferBytes), 'num');
      cell(tr, bytes(c.bytesRead), 'num'); cell(tr, bytes(c.bytesPerSecond) + '/s', 'num');
      cell(tr, num(c.sharePercent) + ' %', 'num');
    }, x ? 'no connection open' : 'not in this SLA');
  }

  function renderCounts(counts) {
    var parts = [];
    for (var p in counts) {
      for (var a in counts[p]) { if (a !== 'proceed' && counts[p][a] > 0) { parts.push(p + ' ' + a + ' ' + counts[p][a]); } }
    }
    $('decision-counts').textContent = parts.length ? '(since start: ' + parts.join(', ') + ')' : '(none since start)';
  }

  function renderDecisions(d) {
    var body = $('decisions').tBodies[0];
    if (d.events.length && body.rows.length === 1 && body.rows[0].cells.length === 1) { body.textContent = ''; }
    for (var i = 0; i < body.rows.length; i++) { body.rows[i].classList.remove('new'); }
    d.events.forEach(function (e) {
      var tr = el('tr', null, 'new');
      tr.dataset.seq = e.seq;
      cell(tr, time(e.atMillis)); cell(tr, e.point); cell(tr, e.action, e.action === 'proceed' ? '' : 'bad');
      cell(tr, e.module); cell(tr, printable(e.stream));
      var detail = e.reason ? e.exception + ' ' + e.minor + ': ' + e.reason
        : e.replica ? 'to ' + e.replica : e.waitNanos ? 'wait ' + nanos(e.waitNanos)
        : e.maxWaitNanos ? 'up to ' + nanos(e.maxWaitNanos) : '';
      cell(tr, detail); cell(tr, evidenceText(e.evidence), 'evidence');
      body.insertBefore(tr, body.firstChild);
    });
    while (body.rows.length > DECISIONS_SHOWN) { body.deleteRow(body.rows.length - 1); }
    if (body.rows.length === 0) {
      var tr = el('tr'); var td = el('td', 'no decision yet', 'muted'); td.colSpan = 7; tr.appendChild(td); body.appendChild(tr);
    }
    if (d.missed > 0) {
      var gap = el('tr'); var g = el('td', d.missed + ' decision(s) not shown (more than the server keeps)', 'muted');
      g.colSpan = 7; gap.appendChild(g); body.insertBefore(gap, body.firstChild);
    }
    lastSeq = d.last;
  }

  function push(arr, v) { arr.push(v === undefined ? null : v); if (arr.length > HISTORY) { arr.shift(); } }
  function chart(id, labels, colors) {
    var target = $(id);
    var opts = {
      width: Math.max(320, target.clientWidth || 480), height: 180,
      series: [{}].concat(labels.map(function (l, i) { return { label: l, stroke: colors[i], width: 1.5, spanGaps: true }; })),
      axes: [{}, {}], scales: { x: { time: true } }
    };
    return new uPlot(opts, [[]].concat(labels.map(function () { return []; })), target);
  }
  function renderCharts(s) {
    if (typeof uPlot === 'undefined') { return; }
    if (!charts.tp) {
      charts.tp = chart('chart-throughput', ['current', 'baseline'], ['#1565c0', '#9e9e9e']);
      charts.res = chart('chart-resources', ['CPU cores', 'GC time %', 'heap %'], ['#c62828', '#6a1b9a', '#2e7d32']);
    }
    var p = s.poison, r = s.resources;
    push(series.t, s.nowMillis / 1000);
    push(series.tp, p && p.throughputCurrent ? p.throughputCurrent.throughputPerSecond : null);
    push(series.base, p && p.throughputBaseline ? p.throughputBaseline.throughputPerSecond : null);
    push(series.cpu, r ? r.processCpuCores : null);
    push(series.gc, r ? r.gcTimePercent : null);
    push(series.heap, r ? r.heapPercent : null);
    charts.tp.setData([series.t, series.tp, series.base]);
    charts.res.setData([series.t, series.cpu, series.gc, series.heap]);
  }

  function get(path) {
    return fetch(path, { cache: 'no-store' }).then(function (r) {
      if (!r.ok) { throw new Error(path + ': HTTP ' + r.status); }
      return r.json();
    });
  }

  function poll() {
    Promise.all([get('api/state'), get('api/decisions?after=' + lastSeq + '&limit=100')]).then(function (both) {
      var s = both[0];
      renderSla(s);
      renderPoison(s.poison);
      renderSlowClient(s.slowClient, s.resources);
      renderCrosstalk(s.crosstalk, s.resources);
      renderCounts(s.decisionCounts);
      renderDecisions(both[1]);
      renderCharts(s);
      $('refresh').textContent = 'updated ' + time(s.nowMillis);
      $('refresh').className = '';
    }).catch(function (e) {
      $('refresh').textContent = 'not updated: ' + e.message + ' (retrying)';
      $('refresh').className = 'bad';
    }).then(function () { setTimeout(poll, POLL_MILLIS); });
  }
  poll();
}());
