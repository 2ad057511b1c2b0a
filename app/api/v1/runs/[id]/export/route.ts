export { GET } from "@/app/api/runs/[id]/export/route";
