import {
  FUNNEL_DEFAULTS,
  FUNNEL_TEMPLATES,
  type Account,
  type Funnel,
  type FunnelFromTemplate,
  type FunnelTemplate,
} from '@embudo/contracts';
import type { PageService } from '../../pages/page.service';
import type { FunnelService } from '../funnel.service';
import { FUNNEL_TEMPLATE_PLANS } from './funnel-templates';

export interface FunnelTemplateServiceDeps {
  funnels: Pick<FunnelService, 'create' | 'get' | 'remove'>;
  pages: Pick<PageService, 'create'>;
}

/** Funnels made from the ready-made templates (the demo's VSL launch and WhatsApp landing). */
export function createFunnelTemplateService({ funnels, pages }: FunnelTemplateServiceDeps) {
  return {
    list(): FunnelTemplate[] {
      return FUNNEL_TEMPLATES.map((id) => {
        const plan = FUNNEL_TEMPLATE_PLANS[id];
        return {
          id,
          typeFunnel: plan.funnel.typeFunnel ?? FUNNEL_DEFAULTS.typeFunnel,
          language: plan.funnel.language ?? FUNNEL_DEFAULTS.language,
          pageCount: plan.pages.length,
        };
      });
    },

    /**
     * A new funnel with the template's settings and pages, under the owner's name (and language, if
     * given). The funnel is created as any other (the funnels-per-account limit holds) and its pages
     * as any other (sanitised, within the pages' limits); should a page be refused, the funnel is
     * deleted again and the refusal answered.
     */
    async create(owner: Pick<Account, 'id'>, input: FunnelFromTemplate): Promise<Funnel> {
      const plan = FUNNEL_TEMPLATE_PLANS[input.template];
      const funnel = await funnels.create(owner, {
        ...plan.funnel,
        name: input.name,
        ...(input.language ? { language: input.language } : {}),
      });
      try {
        for (const page of plan.pages) await pages.create(owner, funnel.id, page);
      } catch (error) {
        await funnels.remove(owner, funnel.id);
        throw error;
      }
      return funnels.get(owner, funnel.id);
    },
  };
}
export type FunnelTemplateService = ReturnType<typeof createFunnelTemplateService>;
