import type { NetworkData, SolveResult } from '@ps/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '@/lib/settings/useFormatters';
import { layoutNetwork, type DiagramLane, type DiagramNode } from '../utils/network-layout';

/** A lane as a gentle curve, so lanes between the same columns do not hide one another. */
function lanePath({ from, to }: DiagramLane): string {
  const midX = (from.x + to.x) / 2;
  const bend = Math.abs(to.y - from.y) < 4 ? 18 : 0;
  return `M ${from.x} ${from.y} Q ${midX} ${(from.y + to.y) / 2 - bend} ${to.x} ${to.y}`;
}

function NodeShape({ node }: { node: DiagramNode }) {
  if (node.kind === 'plant') {
    return (
      <rect
        x={node.x - 13}
        y={node.y - 13}
        width={26}
        height={26}
        rx={4}
        className="fill-primary stroke-background"
        strokeWidth={2}
      />
    );
  }
  if (node.kind === 'region') {
    return (
      <circle cx={node.x} cy={node.y} r={20} className="fill-success stroke-background" strokeWidth={2} />
    );
  }
  const isClosed = node.isOpen === false;
  return (
    <g>
      <path
        d={`M ${node.x} ${node.y - 15} L ${node.x + 15} ${node.y} L ${node.x} ${node.y + 15} L ${node.x - 15} ${node.y} Z`}
        className={isClosed ? 'fill-muted stroke-muted-foreground' : 'fill-warning stroke-background'}
        strokeWidth={2}
        strokeDasharray={isClosed ? '3 2' : undefined}
      />
      {isClosed && (
        <path
          d={`M ${node.x - 6} ${node.y - 6} L ${node.x + 6} ${node.y + 6} M ${node.x + 6} ${node.y - 6} L ${node.x - 6} ${node.y + 6}`}
          className="stroke-muted-foreground"
          strokeWidth={2}
        />
      )}
    </g>
  );
}

/**
 * The network as a diagram: a zone per region with its plants (squares), DCs (diamonds; grey and
 * crossed when closed) and customer region (circle); lanes carry the solution's flows, wider for
 * more units (inbound blue, outbound green).
 */
export function NetworkDiagram({ network, result }: { network: NetworkData; result: SolveResult | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const layout = useMemo(() => layoutNetwork(network, result), [network, result]);
  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        className="h-auto w-full"
        role="img"
        aria-label={t('optichain:diagram.label')}
        data-testid="network-diagram"
      >
        {layout.zones.map((zone) => (
          <g key={zone.region}>
            <rect
              x={zone.x}
              y={zone.y}
              width={zone.width}
              height={zone.height}
              rx={10}
              className="fill-muted/40 stroke-border"
            />
            <text x={zone.x + 12} y={zone.y + 22} className="fill-muted-foreground text-[13px] font-semibold">
              {zone.region}
            </text>
          </g>
        ))}
        {layout.lanes.map((lane) => (
          <path
            key={lane.key}
            d={lanePath(lane)}
            fill="none"
            strokeWidth={lane.width}
            strokeLinecap="round"
            className={lane.leg === 'inbound' ? 'stroke-primary/60' : 'stroke-success/60'}
          >
            <title>
              {t('optichain:diagram.laneTitle', {
                from: lane.from.label,
                to: lane.to.label,
                units: format.number(lane.units),
              })}
            </title>
          </path>
        ))}
        {layout.nodes.map((node) => (
          <g
            key={node.key}
            data-node={node.label}
            data-open={node.isOpen === null ? undefined : String(node.isOpen)}
          >
            <NodeShape node={node} />
            <text
              x={node.x}
              y={node.y + 30}
              textAnchor="middle"
              className="fill-foreground stroke-card text-[11px] font-medium"
              strokeWidth={3}
              paintOrder="stroke"
            >
              {node.label}
            </text>
            {node.utilisationPercent !== null && (
              <text
                x={node.x}
                y={node.y + 43}
                textAnchor="middle"
                className="fill-muted-foreground stroke-card text-[10px]"
                strokeWidth={3}
                paintOrder="stroke"
              >
                {node.kind === 'dc' && node.isOpen === false
                  ? t('optichain:diagram.closed')
                  : t('optichain:diagram.utilisation', {
                      percent: format.number(node.utilisationPercent, 1),
                    })}
              </text>
            )}
          </g>
        ))}
      </svg>
      <figcaption className="flex flex-wrap items-center gap-4 text-xs text-muted-foreground">
        <span className="flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm bg-primary" aria-hidden />
          {t('optichain:diagram.plant')}
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block size-3 rotate-45 bg-warning" aria-hidden />
          {t('optichain:diagram.dcOpen')}
        </span>
        <span className="flex items-center gap-1.5">
          <span
            className="inline-block size-3 rotate-45 border border-dashed border-muted-foreground bg-muted"
            aria-hidden
          />
          {t('optichain:diagram.dcClosed')}
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-full bg-success" aria-hidden />
          {t('optichain:diagram.region')}
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-1 w-5 rounded bg-primary/60" aria-hidden />
          {t('optichain:diagram.inbound')}
        </span>
        <span className="flex items-center gap-1.5">
          <span className="inline-block h-1 w-5 rounded bg-success/60" aria-hidden />
          {t('optichain:diagram.outbound')}
        </span>
        <span>{t('optichain:diagram.widthNote')}</span>
      </figcaption>
    </figure>
  );
}
